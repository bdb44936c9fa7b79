# check-draw-helper.py — only tprof hist and plot load cairo (through tprof-draw), from the build tree and from an install staged with DESTDIR.
# Usage: check-draw-helper.py TPROF BUILD_ROOT MAKE_SCENARIO MESON INSTALLED_DRAW   (prints OK)
# SPDX-License-Identifier: MIT
import glob
import os
import re
import subprocess
import sys
import tempfile

TPROF, BUILD_ROOT, SCENARIO, MESON, INSTALLED_DRAW = sys.argv[1:6]
DRAWING = ('libcairo', 'libpango', 'libfontconfig', 'libfreetype', 'libharfbuzz')


def run(tprof, args, env=None):
    """Runs tprof with the loader telling every library it starts; returns
    (status, stdout bytes, the libraries started)."""
    full_env = dict(os.environ, LD_DEBUG='libs', **(env or {}))
    p = subprocess.run([tprof, *args], capture_output=True, env=full_env)
    err = p.stderr.decode(errors='replace')
    started = set(re.findall(r'calling init: (\S+)', err))
    assert p.returncode == 0, (args, p.returncode, err[-2000:])
    return p.stdout, started


def loads_drawing(started):
    return sorted(lib for lib in started if any(os.path.basename(lib).startswith(d) for d in DRAWING))


def check(tprof, profile, out, env=None):
    """The outputs of tprof on @profile, asserting what each command loads."""
    outputs = {}
    for args in (['--version'], ['summary', profile], ['summary', '--format', 'json', profile],
                 ['stragglers', profile], ['ranks', profile, '--op', 'backward']):
        stdout, started = run(tprof, args, env)
        # the check can see a library: the C library and GLib are started
        assert any('libglib-2.0' in lib for lib in started), sorted(started)
        assert loads_drawing(started) == [], (args, loads_drawing(started))
        outputs[' '.join(args[:3])] = stdout
    for args in (['hist', profile, '--op', 'backward'], ['plot', profile, '--op', 'backward', '--kind', 'trend'],
                 ['plot', profile, '--op', 'forward', '--kind', 'heatmap']):
        for suffix in ('csv', 'png'):
            path = os.path.join(out, '%s-%s.%s' % (args[0], args[-1], suffix))
            stdout, started = run(tprof, args + ['-o', path], env)
            # the picture is drawn by cairo, in the helper tprof exec'd
            assert any(os.path.basename(lib).startswith('libcairo') for lib in started), (args, sorted(started))
            with open(path, 'rb') as f:
                data = f.read()
            if suffix == 'png':
                assert data.startswith(b'\x89PNG\r\n\x1a\n') and len(data) > 1000, (path, data[:16])
            else:
                assert data.count(b'\n') > 3, data[:200]
                outputs[os.path.basename(path)] = data
    # the help of a command that draws, through tprof help too
    for args in (['hist', '--help'], ['help', 'plot']):
        stdout, _ = run(tprof, args, env)
        assert stdout.startswith(b'Usage:\n  tprof %s [OPTION' % args[-1 if args[0] == 'help' else 0].encode()), stdout[:80]
    return outputs


with tempfile.TemporaryDirectory() as tmp:
    profile = os.path.join(tmp, 'node.h5')
    subprocess.run([sys.executable, SCENARIO, 'slow-node', profile, '--ranks', '16', '--steps', '12'], check=True,
                   capture_output=True)
    built = os.path.join(tmp, 'built')
    os.mkdir(built)
    from_build = check(TPROF, profile, built)

    # an install staged under DESTDIR: its tprof finds its own tprof-draw
    dest = os.path.join(tmp, 'dest')
    subprocess.run([MESON, 'install', '-C', BUILD_ROOT, '--no-rebuild', '--quiet', '--tags', 'runtime',
                    '--destdir', dest], check=True, capture_output=True)
    [tprof] = glob.glob(os.path.join(dest, '**', 'bin', 'tprof'), recursive=True)
    [draw] = glob.glob(os.path.join(dest, '**', 'tprof-draw'), recursive=True)
    [reader] = glob.glob(os.path.join(dest, '**', 'tprof-reader'), recursive=True)
    [lib] = glob.glob(os.path.join(dest, '**', 'libtprof-capture.so.0'), recursive=True)
    env = {'LD_LIBRARY_PATH': os.path.dirname(lib), 'TPROF_READER': reader}
    installed = os.path.join(tmp, 'installed')
    os.mkdir(installed)
    from_install = check(tprof, profile, installed, env)
    assert from_install == from_build, sorted(k for k in from_build if from_build[k] != from_install.get(k))

    # the helper the install's tprof ran is the install's: without it, no picture
    os.rename(draw, draw + '.away')
    p = subprocess.run([tprof, 'hist', profile, '--op', 'backward', '-o', os.path.join(tmp, 'none.csv')],
                       capture_output=True, text=True, env=dict(os.environ, **env))
    if not os.path.exists(INSTALLED_DRAW):  # else the configured path has one
        assert p.returncode == 1 and 'tprof-draw' in p.stderr and p.stderr.count('\n') == 1, (p.returncode, p.stderr)
        assert not os.path.exists(os.path.join(tmp, 'none.csv'))

    # TPROF_DRAW names the helper: a stand-in gets the same arguments and
    # its exit status is tprof's; one that cannot be run is named
    args_file = os.path.join(tmp, 'args')
    stand_in = os.path.join(tmp, 'stand-in-draw')
    with open(stand_in, 'w') as f:
        f.write('#!/bin/sh\nprintf "%%s\\n" "$0" "$@" > %s\nexit 3\n' % args_file)
    os.chmod(stand_in, 0o755)
    p = subprocess.run([TPROF, 'plot', profile, '--op', 'back ward', '--kind', 'trend'], capture_output=True,
                       text=True, env=dict(os.environ, TPROF_DRAW=stand_in))
    assert p.returncode == 3, (p.returncode, p.stderr)
    with open(args_file) as f:
        assert f.read().split('\n')[:-1] == [stand_in, 'plot', profile, '--op', 'back ward', '--kind', 'trend']
    missing = os.path.join(tmp, 'no-such-draw')
    p = subprocess.run([TPROF, 'hist', profile, '--op', 'backward'], capture_output=True, text=True,
                       env=dict(os.environ, TPROF_DRAW=missing, LC_ALL='C'))
    assert p.returncode == 1 and p.stderr == 'tprof: %s: No such file or directory\n' % missing, (p.returncode, p.stderr)
print('OK')
