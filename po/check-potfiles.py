#!/usr/bin/python3
# check-potfiles.py: fails when po/POTFILES.in misses a file with translatable strings, or lists a missing file.
# SPDX-License-Identifier: MIT
"""Usage: check-potfiles.py SOURCE_ROOT
       check-potfiles.py --update SOURCE_ROOT
       check-potfiles.py --self-test

Scans the viewer sources (.c, .h, .ui) for gettext markers and the data
directory for files that are translatable by their type (desktop entry,
metainfo, GSettings schema), then compares with po/POTFILES.in. Exit status
0 when they agree, 1 with one line per problem otherwise. --update rewrites
po/POTFILES.in instead: the files found plus listed ones that still exist.
"""

import os
import re
import sys
import tempfile

SCANNED_DIRS = ('viewer', 'data')

# A call of a gettext function, not an identifier that merely ends in one
# (e.g. `foo_(` or `my_ngettext (`).
C_MARKER = re.compile(r'(?<![A-Za-z0-9_])'
                      r'(?:_|N_|C_|NC_|Q_|g_dgettext|g_dngettext|g_dpgettext2?|'
                      r'gettext|dgettext|ngettext|dngettext)\s*\(')
UI_MARKER = re.compile(r'translatable\s*=\s*["\'](?:yes|true|1)["\']', re.I)

# Data files translatable by their type, whatever their content.
DATA_SUFFIXES = ('.desktop.in', '.metainfo.xml.in', '.appdata.xml.in', '.gschema.xml')


def strip_c_comments_and_includes(text):
    """Drops comments and #include lines, which mention `_(` without translating."""
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    return re.sub(r'^\s*#\s*include[^\n]*', ' ', text, flags=re.M)


def is_translatable(path):
    if path.endswith(DATA_SUFFIXES):
        return True
    if path.endswith(('.c', '.h')):
        with open(path, encoding='utf-8', errors='replace') as f:
            return C_MARKER.search(strip_c_comments_and_includes(f.read())) is not None
    if path.endswith('.ui'):
        with open(path, encoding='utf-8', errors='replace') as f:
            return UI_MARKER.search(f.read()) is not None
    return False


def find_translatable(root):
    found = set()
    for top in SCANNED_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            # Never descend into build directories that may sit in the tree.
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(('build', '.')))
            for name in filenames:
                path = os.path.join(dirpath, name)
                if is_translatable(path):
                    found.add(os.path.relpath(path, root))
    return found


def read_potfiles(path):
    entries = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith('#'):
                entries.append(line)
    return entries


def check(root):
    """Returns the list of problems, empty when POTFILES.in is right."""
    potfiles_in = os.path.join(root, 'po', 'POTFILES.in')
    try:
        listed = read_potfiles(potfiles_in)
    except OSError as e:
        return ['%s: cannot read: %s' % (potfiles_in, e.strerror)]

    problems = []
    for entry in sorted(find_translatable(root) - set(listed)):
        problems.append('po/POTFILES.in: missing %s, which has translatable strings' % entry)
    for entry in listed:
        if not os.path.isfile(os.path.join(root, entry)):
            problems.append('po/POTFILES.in: lists %s, which does not exist' % entry)
    seen = set()
    for entry in listed:
        if entry in seen:
            problems.append('po/POTFILES.in: lists %s twice' % entry)
        seen.add(entry)
    if listed != sorted(listed):
        problems.append('po/POTFILES.in: entries are not sorted')
    return problems


def update(root):
    potfiles_in = os.path.join(root, 'po', 'POTFILES.in')
    with open(potfiles_in, encoding='utf-8') as f:
        header = [line for line in f if line.startswith('#')]
    listed = read_potfiles(potfiles_in)
    kept = {e for e in listed if os.path.isfile(os.path.join(root, e))}
    entries = sorted(kept | find_translatable(root))
    write(potfiles_in, ''.join(header) + ''.join(e + '\n' for e in entries))
    return 0


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)


def self_test():
    """Checks the checker on small trees with known defects."""
    failures = []

    def expect(what, root, wanted):
        problems = check(root)
        got = [p for p in problems if wanted in p] if wanted else problems
        if wanted and not got:
            failures.append('%s: expected a problem containing %r, got %r' % (what, wanted, problems))
        if not wanted and problems:
            failures.append('%s: expected no problem, got %r' % (what, problems))

    with tempfile.TemporaryDirectory() as root:
        write(os.path.join(root, 'viewer/app/a.c'), 'x = _("Open");\n')
        write(os.path.join(root, 'viewer/app/b.c'), '/* _("in a comment") */\nmy_gettext_(1);\n')
        write(os.path.join(root, 'viewer/app/c.ui'), '<property name="label" translatable="yes">Hi</property>\n')
        write(os.path.join(root, 'viewer/cli/d.c'), 'g_print (ngettext ("%d rank", "%d ranks", n), n);\n')
        write(os.path.join(root, 'data/x.gschema.xml'), '<schemalist/>\n')
        good = ('viewer/app/a.c\nviewer/app/c.ui\nviewer/cli/d.c\n')
        write(os.path.join(root, 'po/POTFILES.in'), '# comment\ndata/x.gschema.xml\n' + good)
        expect('complete list', root, None)

        write(os.path.join(root, 'po/POTFILES.in'), 'data/x.gschema.xml\nviewer/app/a.c\nviewer/cli/d.c\n')
        expect('missing .ui', root, 'missing viewer/app/c.ui')

        write(os.path.join(root, 'po/POTFILES.in'), 'viewer/app/a.c\nviewer/app/c.ui\nviewer/cli/d.c\n')
        expect('missing schema', root, 'missing data/x.gschema.xml')

        write(os.path.join(root, 'po/POTFILES.in'), 'data/x.gschema.xml\n' + good + 'viewer/gone.c\n')
        expect('stale entry', root, 'viewer/gone.c, which does not exist')

        write(os.path.join(root, 'po/POTFILES.in'), good + 'data/x.gschema.xml\n')
        expect('unsorted', root, 'not sorted')

        write(os.path.join(root, 'po/POTFILES.in'), '# comment\nviewer/gone.c\nviewer/cli/d.c\n')
        update(root)
        expect('updated list', root, None)

    for failure in failures:
        print('self-test: ' + failure, file=sys.stderr)
    return 1 if failures else 0


def main(argv):
    if len(argv) == 2 and argv[1] == '--self-test':
        return self_test()
    updating = len(argv) == 3 and argv[1] == '--update'
    if not updating and (len(argv) != 2 or argv[1].startswith('-')):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = argv[-1]
    if not os.path.isdir(os.path.join(root, 'po')):
        print('check-potfiles: %s: not a tprof source tree (no po/ directory)' % root, file=sys.stderr)
        return 2
    if updating:
        return update(root)
    problems = check(root)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
