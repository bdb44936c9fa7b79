# check-svg.py — checks an SVG export of the histogram: well-formed XML, the requested size, one bar per non-empty bin.
# SPDX-License-Identifier: MIT
import re
import sys
import xml.etree.ElementTree as ET

path, width, height, bars, fill = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
root = ET.parse(path).getroot()
ns = '{http://www.w3.org/2000/svg}'
if root.tag != ns + 'svg':
    sys.exit('root element is %s, not svg' % root.tag)
if root.get('viewBox').split() != ['0', '0', str(width), str(height)]:
    sys.exit('viewBox is %r, expected 0 0 %d %d' % (root.get('viewBox'), width, height))
if float(root.get('width').rstrip('px')) != width or float(root.get('height').rstrip('px')) != height:
    sys.exit('size is %s x %s' % (root.get('width'), root.get('height')))

# The bars of one colour are one path of rectangles ("M x y L ... Z"), one per non-empty bin.
wanted = [float(c) for c in fill.split(',')]
subpaths = 0
for element in root.iter(ns + 'path'):
    match = re.search(r'fill:rgb\(([^)]*)\)', element.get('style', ''))
    if not match:
        continue
    rgb = [float(c.rstrip('%')) / 100 for c in match.group(1).split(',')]
    if all(abs(a - b) < 1e-4 for a, b in zip(rgb, wanted)):
        subpaths += element.get('d').count('Z')
if subpaths != bars:
    sys.exit('found %d bars filled with %s, expected %d' % (subpaths, fill, bars))
texts = [e for e in root.iter(ns + 'use')]
if len(texts) < 20:
    sys.exit('expected text glyphs (title, labels), found %d' % len(texts))
