package org.libiprof;

/** The spelling of the instanceof section's key ({@code enum iprof_instanceof_key}). */
public enum InstanceofKey {
    /** The writer's default: the model's spelling, else GraalVM's. */
    AUTO(""),
    /** "instanceofProfiles", the published document's. */
    LOWER("instanceofProfiles"),
    /** "instanceOfProfiles", GraalVM 25's. */
    CAMEL("instanceOfProfiles");

    private final String key;

    InstanceofKey(String key) {
        this.key = key;
    }

    /** {@return the JSON key, "" for AUTO} */
    public String key() {
        return key;
    }
}
