#!/usr/bin/env python3
"""A command skill: its parameters arrive as one JSON object on standard input."""
import json
import sys

params = json.load(sys.stdin)
text = params["text"]
json.dump({"words": len(text.split()), "lines": len(text.splitlines()), "chars": len(text)}, sys.stdout)
