package org.libiprof;

import java.util.ArrayList;
import java.util.List;

/**
 * One frame of a context: a method id and a bytecode index. Frame 0 of a
 * context is the callee, the last one the outermost caller.
 * @param methodId the method id
 * @param bci the bytecode index
 */
public record Frame(long methodId, long bci) {
    /**
     * A frame.
     * @param methodId the method id
     * @param bci the bytecode index
     * @return the frame
     */
    public static Frame of(long methodId, long bci) {
        return new Frame(methodId, bci);
    }

    /**
     * The frames of ctx text, "5:0&lt;3:2" (callee first).
     * @param ctx the text
     * @return the frames
     * @throws IllegalArgumentException for text that is not "id:bci" pairs joined by '&lt;'
     */
    public static List<Frame> parse(String ctx) {
        List<Frame> out = new ArrayList<>();
        for (String part : ctx.split("<", -1)) {
            int colon = part.indexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("bad ctx text \"" + ctx + "\": want id:bci<id:bci...");
            }
            try {
                out.add(new Frame(Long.parseLong(part.substring(0, colon).strip()),
                                  Long.parseLong(part.substring(colon + 1).strip())));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad ctx text \"" + ctx + "\": " + e.getMessage());
            }
        }
        return out;
    }

    /**
     * The ctx text of frames, "5:0&lt;3:2".
     * @param frames the frames, callee first
     * @return the text
     */
    public static String format(List<Frame> frames) {
        StringBuilder b = new StringBuilder();
        for (Frame f : frames) {
            if (b.length() > 0) {
                b.append('<');
            }
            b.append(f.methodId).append(':').append(f.bci);
        }
        return b.toString();
    }

    /** {@return "id:bci"} */
    @Override
    public String toString() {
        return methodId + ":" + bci;
    }
}
