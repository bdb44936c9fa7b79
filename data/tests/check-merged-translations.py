#!/usr/bin/python3
# check-merged-translations.py: checks that the built desktop entry and metainfo carry every language's translations.
# SPDX-License-Identifier: MIT
"""Usage: check-merged-translations.py PO_DIR DESKTOP_FILE METAINFO_FILE

For each language in PO_DIR/LINGUAS, compiles its .po file with msgfmt and
checks that the merged desktop entry and metainfo hold that language's
translation of the name and summary: a broken po_dir, LINGUAS or merge rule
would otherwise ship untranslated files without any error.
"""

import configparser
import gettext
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

XML_LANG = '{http://www.w3.org/XML/1998/namespace}lang'


def load_catalog(po_path, tmpdir):
    mo_path = os.path.join(tmpdir, os.path.basename(po_path) + '.mo')
    subprocess.run(['msgfmt', '-o', mo_path, po_path], check=True)
    with open(mo_path, 'rb') as f:
        return gettext.GNUTranslations(f)


def desktop_entry(path):
    parser = configparser.RawConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # keys are case-sensitive
    with open(path, encoding='utf-8') as f:
        parser.read_file(f)
    return parser['Desktop Entry']


def xml_texts(root, tag):
    """Maps language ('' for the untranslated one) to the text of each <tag> child of root."""
    return {e.get(XML_LANG, ''): (e.text or '').strip() for e in root.findall(tag)}


def check_language(lang, catalog, entry, component):
    problems = []

    def expect(where, got, source):
        wanted = catalog.gettext(source)
        if wanted == source:
            problems.append('%s: %s.po does not translate %r' % (lang, lang, source))
        elif got != wanted:
            problems.append('%s: expected %r, found %r' % (where, wanted, got))

    for key in ('Name', 'GenericName', 'Comment'):
        expect('desktop %s[%s]' % (key, lang), entry.get('%s[%s]' % (key, lang)), entry[key])
    for tag in ('name', 'summary'):
        texts = xml_texts(component, tag)
        expect('metainfo <%s xml:lang="%s">' % (tag, lang), texts.get(lang), texts[''])
    return problems


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    po_dir, desktop_path, metainfo_path = argv[1:]
    with open(os.path.join(po_dir, 'LINGUAS'), encoding='utf-8') as f:
        languages = [w for line in f if not line.startswith('#') for w in line.split()]
    if not languages:
        print('%s/LINGUAS: lists no language' % po_dir, file=sys.stderr)
        return 1

    entry = desktop_entry(desktop_path)
    component = ET.parse(metainfo_path).getroot()
    problems = []
    with tempfile.TemporaryDirectory() as tmpdir:
        for lang in languages:
            catalog = load_catalog(os.path.join(po_dir, lang + '.po'), tmpdir)
            problems += check_language(lang, catalog, entry, component)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
