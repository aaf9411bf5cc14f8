#!/usr/bin/env python3
"""Reads a fuzz target's crash output (stdin) and prints the crash type and crash state the way ClusterFuzz's
stack analyzer computes them for sanitizer and libFuzzer output (the rules fuzz/bug_report.h relies on):

  - an assertion line ("[...] ASSERTION FAILED: MESSAGE", or "FILE.c:...: ASSERTION FAILED: MESSAGE") makes
    the type ASSERT and MESSAGE the first line of the state; a later sanitizer ABRT line does not replace it;
  - otherwise a sanitizer error line ("ERROR: AddressSanitizer: ABRT on unknown address ...") gives the type;
    libFuzzer's "deadly signal" without one gives Fatal-signal (an approximation: the type is not asserted);
  - stack frames ("#N 0xADDR in FUNCTION LOCATION") after the type fill the state up to three lines, skipping
    the frames ClusterFuzz ignores (abort, raise, pthread_kill, libc and libpthread, the sanitizers' and
    libFuzzer's own, LLVMFuzzerTestOneInput, main, _start, anything containing "assert");
  - in the state, hexadecimal addresses become ADDRESS and runs of four or more digits (not after ':') NUMBER,
    and every line is cut at 80 characters.

Output: the type on the first line, then the state's lines. Only what the tests need; not ClusterFuzz."""
import re
import sys

ASSERT_LINE = re.compile(r'(?:\[.*?\]|.*\.(?:c|cc|cpp|cxx|h|hh|hpp|hxx):.*)?\s*'
                         r'(?:ASSERT(?:ION)? FAIL(?:URE|ED)|panic): (.*)', re.IGNORECASE)
SANITIZER_ERROR = re.compile(r'.*ERROR: [a-zA-Z]+Sanitizer[: ]*(.*) on (?:unknown address |address |)0x[0-9a-fA-F]+')
SANITIZER_ABRT = re.compile(r'.*[a-zA-Z]+Sanitizer: ABRT ')
DEADLY_SIGNAL = re.compile(r'.*ERROR:\s*libFuzzer:\s*deadly signal')
FRAME = re.compile(r'\s*#\d+\s+0x[0-9a-fA-F]+\s+(?:in\s+(.*)|\((.*)\))$')
# Applied to the function name (ClusterFuzz applies them to the frame as its symbolizer writes it; on its
# runners glibc has no line information, so raise and abort show as libc.so.6+0x... and go by the library rule)
IGNORED = re.compile(r'^(abort|raise|exit|pthread_kill|tgkill|main|_start)$|^(__pthread_kill|__sanitizer|__asan|'
                     r'__ubsan|__interceptor_|__libc_|__GI_|fuzzer::|LLVMFuzzerTestOneInput|gsignal)|.*assert')
IGNORED_LIBRARY = re.compile(r'.*libc\.so|.*libc-.*\.so|.*libpthread|.*/glibc-')


def function_of(frame):
    """The frame's function name as ClusterFuzz keeps it: up to an argument list or the location."""
    m = re.match(r'(.*?)[\(\[].*', frame)
    if m and m.group(1):
        return m.group(1).strip()
    return frame.strip().split(' ')[0]


def normalize(line):
    line = re.sub(r'0x[a-fA-F0-9]{4,}U*', 'ADDRESS', line)
    line = re.sub(r'(?<![:0-9.])(?:[0-9.]{4,})(?![A-Za-z0-9.])', 'NUMBER', line)
    return line[:80]


def crash_state(text):
    kind, state = '', []
    for line in text.splitlines():
        if 'SUMMARY:' in line or 'DEADLYSIGNAL' in line:
            continue
        m = ASSERT_LINE.match(line)
        if m:
            kind, state = 'ASSERT', [m.group(1)]
            continue
        if kind == 'ASSERT' and SANITIZER_ABRT.match(line):
            continue
        m = SANITIZER_ERROR.match(line)
        if m and kind != 'ASSERT':
            kind, state = m.group(1).strip().lower().replace('_', '-').capitalize(), []
            continue
        if DEADLY_SIGNAL.match(line) and not kind:
            kind, state = 'Fatal-signal', []
            continue
        m = FRAME.match(line)
        if m and kind and len(state) < 3:
            frame = m.group(1) if m.group(1) is not None else m.group(2)
            if frame and len(frame) >= 3 and not IGNORED.match(function_of(frame)) and \
                    not IGNORED_LIBRARY.match(frame):
                state.append(function_of(frame))
    return kind, [normalize(s) for s in state]


if __name__ == '__main__':
    kind, state = crash_state(sys.stdin.read())
    print(kind)
    for s in state:
        print(s)
