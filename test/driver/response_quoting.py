#!/usr/bin/env python3
"""Response files read by coz-cc as clang reads them.

Usage: response_quoting.py COZ_CC CLANG WORKDIR

For each tricky file F below, clang's own reading (`CLANG -### @F`) is
compared with coz-cc's: coz-cc is given `@G`, where G holds a --coz- option
and `@F`, so coz-cc must expand F itself and pass its arguments inline. Every
token of F is a -D or -U value, which clang's -### output shows verbatim and
in order; clang's error lines are compared too. A file that includes itself
must be refused by both.
"""
import os
import re
import shutil
import subprocess
import sys

# name: bytes of the file (every token a -D/-U value, or a @file).
CASES = {
    'backslash_in_single_quotes': rb"-DA='a\b' -DB='a\'b' -DC='x\\y'",
    'backslash_in_double_quotes': rb'-DA="a\"b" -DB="a\\b" -DC="a\b"',
    'backslash_bare': rb"-DA=a\ b -DB=a\\b -DC=a\'b -DD=\"",
    'empty_tokens': b"-D '' -DF=1 -D \"\" -DG=2 -U''H",
    'newline_in_quotes': b"-DA='line1\nline2' -DB=\"x\ny\"",
    'backslash_newline': b"-DA=a\\\nb -DB=c",
    'crlf': b"-DA=1\r\n-DB='2 3'\r\n",
    'formfeed_vtab': b"-DA=x\x0b-DB=y\x0c-DC=z -DD=1",
    'utf8_bom': b"\xef\xbb\xbf-DA=1 -DB=\xc3\xa9",
    'utf16le_bom': "\ufeff-DA='\u00e9 \U0001f600' -DB=2".encode('utf-16-le'),
    'utf16be_bom': "\ufeff-DA=\u4e2d -DB=2".encode('utf-16-be'),
    'unclosed_quote': b"-DA=1 -DK='abc def",
    'unclosed_quote_backslash': b"-DA=1 -DK=\"abc\\",
    'trailing_backslash': b"-DA=1 -DL=a\\",
    'quotes_inside_token': b"-DA=a'b c'd\"e f\"g -DB=''x\"\"",
    'nul_byte': b"-DA=1\0tail -DB=2",
    'nested': b"-DA=1 '@inner.rsp' -DZ=9 @sub/chain.rsp",
    'missing_nested': b"-DA=1 @missing.rsp -DB=2",
}
AUX = {
    'inner.rsp': b"-DI='in ner' -UJ",
    # Nested @files are read from the working directory, not the including
    # file's: sub/chain.rsp's @leaf.rsp is ./leaf.rsp.
    'sub/chain.rsp': b"-DC=chain @leaf.rsp",
    'leaf.rsp': b"-DW=cwd",
    'sub/leaf.rsp': b"-DW=subdir",
    'loop_a.rsp': b"-DA=1 @loop_b.rsp",
    'loop_b.rsp': b"-DB=1 @loop_a.rsp",
}


def defines(stderr):
    """The -D/-U values of the compile job, and clang's error lines."""
    start = stderr.find('\n "')
    args = [re.sub(r'\\(.)', r'\1', m, flags=re.S) for m in
            re.findall(r'"((?:[^"\\]|\\.)*)"', stderr[start:], re.S)]
    values = [(a, args[i + 1]) for i, a in enumerate(args[:-1])
              if start >= 0 and a in ('-D', '-U')]
    errors = [l[l.find('error:'):] for l in stderr.splitlines()
              if 'error:' in l]
    return values, errors


def run(cmd):
    p = subprocess.run(cmd, capture_output=True)
    return p.returncode, p.stderr.decode('utf-8', 'surrogateescape')


def main():
    coz_cc, clang, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, 'sub'))
    os.chdir(work)
    with open('x.c', 'w') as f:
        f.write('int x;\n')
    for name, data in AUX.items():
        with open(name, 'wb') as f:
            f.write(data)
    ok = True
    for name, data in CASES.items():
        with open(name + '.rsp', 'wb') as f:
            f.write(data)
        with open(name + '.coz.rsp', 'w') as f:
            f.write(f'--coz-skip=unused @{name}.rsp\n')
        base = ['-###', '-c', 'x.c', '-o', 'x.o']
        _, want_err = run([clang, *base, f'@{name}.rsp'])
        _, got_err = run([coz_cc, '--coz-verbose', *base,
                          f'@{name}.coz.rsp'])
        want, got = defines(want_err), defines(got_err)
        inlined = f'@{name}.coz.rsp' not in got_err
        good = inlined and want == got and bool(want[0])
        print(f'{"ok  " if good else "FAIL"} {name}: clang {want}' +
              ('' if good else f', coz-cc {got}, inlined: {inlined}'))
        ok &= good
    # A loop of files: clang 15 on refuses it; coz-cc refuses it with
    # every major, in one line naming the file.
    status, err = run([coz_cc, '-c', 'x.c', '@loop_a.rsp'])
    lines = err.strip().splitlines()
    good = status != 0 and len(lines) == 1 and 'loop_a.rsp' in lines[0]
    print(f'{"ok  " if good else "FAIL"} a loop of @files is refused: '
          f'status {status}, {lines}')
    ok &= good
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
