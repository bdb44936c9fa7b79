# copy_userblock.py — copies the profile SRC to DST with a user block of 1024 bytes before HDF5's data (every address then counts from it); prints OK.
# SPDX-License-Identifier: MIT
import sys

import h5py

src, dst = sys.argv[1], sys.argv[2]
with h5py.File(src, "r") as f, h5py.File(dst, "w", userblock_size=1024) as g:
    for key, value in f.attrs.items():
        g.attrs[key] = value
    for name in f:
        f.copy(f[name], g, name=name)
print("OK")
