"""Print the text of a PDF (demo script for the pdf-tools skill)."""
import argparse

from pypdf import PdfReader


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("pdf")
    parser.add_argument("--pages", help="range like 1-3")
    args = parser.parse_args()
    reader = PdfReader(args.pdf)
    pages = range(len(reader.pages))
    if args.pages:
        first, last = (int(p) for p in args.pages.split("-"))
        pages = range(first - 1, last)
    for i in pages:
        print(reader.pages[i].extract_text())


if __name__ == "__main__":
    main()
