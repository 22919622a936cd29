"""``python -m skilldeck`` and the ``skilldeck`` console script: the Rust command itself."""

import sys

from ._native import run_cli


def main() -> None:
    # Flush Python's buffers first: the command writes straight to the process's stdout.
    sys.stdout.flush()
    sys.stderr.flush()
    sys.exit(run_cli(sys.argv[1:]))


if __name__ == "__main__":
    main()
