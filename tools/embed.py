#!/usr/bin/env python3
"""Turn a text file into a C header declaring it as a byte array:
   embed.py INPUT OUTPUT NAME  ->  static const char NAME[] = {...};
   (a NUL-terminated array of byte values: C11 string literals over 4095
   characters are not portable, and -Wpedantic says so)."""
import sys

src, dst, name = sys.argv[1:4]
with open(src, "rb") as f:
    data = f.read()
out = ["/* Generated from %s by tools/embed.py: do not edit. */" % src.split("/")[-1],
       "static const char %s[] = {" % name]
for i in range(0, len(data), 16):
    out.append("    " + ", ".join("%d" % b for b in data[i:i + 16]) + ",")
out.append("    0};")
with open(dst, "w") as f:
    f.write("\n".join(out) + "\n")
