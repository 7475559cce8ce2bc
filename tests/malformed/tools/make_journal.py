#!/usr/bin/env python3
"""Writes a faultsweep journal (layout: include/faultsweep/sweep/journal.hpp), optionally
damaged, for the malformed-input corpus and the journal tests.

  make_journal.py OUT JOB_FILE_NAME JOB_TEXT_FILE METRICS RECORDS [options]
    --slice I/N        a slice's journal
    --results-version V  the version of the values (default: the one this source tree computes,
                       sweep/results_version.hpp); 1 writes layout 1 (FSJOURNAL1, or FSJOURNAL2
                       with a slice), any other layout 3 (FSJOURNAL3: slice and version fields)
    --flip K           flip a byte in the middle of record K (0-based)
    --torn N           append N bytes of a torn record
    --name-len X       write X as the length of the job file name (e.g. 2**64 - 8)
    --magic TEXT       another magic line
    --bad-header-crc   a wrong header checksum
"""
import argparse
import os
import re
import struct
import zlib


def current_results_version():
    here = os.path.dirname(os.path.abspath(__file__))
    header = os.path.join(here, "../../../include/faultsweep/sweep/results_version.hpp")
    with open(header) as f:
        return int(re.search(r"kResultsVersion = (\d+);", f.read()).group(1))


p = argparse.ArgumentParser()
p.add_argument("out")
p.add_argument("job_file_name")
p.add_argument("job_text_file")
p.add_argument("metrics", type=int)
p.add_argument("records", type=int)
p.add_argument("--slice", default="")
p.add_argument("--results-version", type=int, default=None)
p.add_argument("--flip", type=int, action="append", default=[])
p.add_argument("--torn", type=int, default=0)
p.add_argument("--name-len", type=lambda s: int(eval(s)), default=None)
p.add_argument("--magic", default=None)
p.add_argument("--bad-header-crc", action="store_true")
a = p.parse_args()

text = open(a.job_text_file, "rb").read()
name = a.job_file_name.encode()
version = current_results_version() if a.results_version is None else a.results_version
layout = "FSJOURNAL3" if version != 1 else "FSJOURNAL2" if a.slice else "FSJOURNAL1"
magic = (a.magic or layout).encode() + b"\n"
h = magic + struct.pack("<Q", len(name) if a.name_len is None else a.name_len) + name
h += struct.pack("<Q", len(text)) + text
if a.slice or layout == "FSJOURNAL3":
    h += struct.pack("<Q", len(a.slice)) + a.slice.encode()
if layout == "FSJOURNAL3":
    h += struct.pack("<I", version)
h += struct.pack("<I", a.metrics)
crc = zlib.crc32(h) & 0xFFFFFFFF
h += struct.pack("<I", crc ^ (1 if a.bad_header_crc else 0))
body = bytearray()
rec_len = 8 + 8 * a.metrics + 4
for t in range(a.records):
    r = struct.pack("<Q", t) + b"".join(struct.pack("<d", 0.5 + t + m) for m in range(a.metrics))
    body += r + struct.pack("<I", zlib.crc32(r) & 0xFFFFFFFF)
for k in a.flip:
    body[k * rec_len + rec_len // 2] ^= 0x40
body += b"\x07" * a.torn
open(a.out, "wb").write(h + bytes(body))
