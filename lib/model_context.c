/* Placeholder until the module lands. */
typedef int ipi_placeholder_model_context;
