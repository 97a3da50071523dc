// labgate entry point: a thin shell over the library's CLI.
#include "labgate/cli/commands.h"

int main(int argc, char** argv) { return labgate::cli::run(argc, argv); }
