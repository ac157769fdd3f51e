/* Placeholder until the module lands. */
int main(void) { return 77; }
