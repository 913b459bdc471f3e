#!/usr/bin/env python3
"""Builds the wheels of the pip cases into DIR/<project>/ (a PEP 503 simple index
that python3 -m http.server serves as is).

    mkwheels.py DIR

Twenty small projects with a dependency tree under shopcli; each carries a
data file of seeded random bytes (so the sizes are the same every capture),
from 40 KB to 9 MB. Wheels are built by pip itself (pip wheel, setuptools,
no network).
"""
import os
import random
import subprocess
import sys
import tempfile

DEPS = {
    "shopcli": ["shopcore", "shopapi", "shopreports"],
    "shopcore": ["shopdata", "shopmoney", "shoptax", "shoplocale"],
    "shopapi": ["shopcore", "shopauth", "shophttp", "shopschema"],
    "shophttp": ["shopcodec", "shopretry"],
    "shopreports": ["shopcharts", "shoppdf", "shopdata"],
    "shopcharts": ["shopfonts", "shopcolors"],
    "shoppdf": ["shopfonts", "shopimages"],
    "shopauth": ["shopcrypto", "shopclock"],
    "shopschema": ["shopcodec"],
}
SIZES = {"shopdata": 9_000_000, "shopfonts": 4_200_000, "shopimages": 2_600_000, "shopcrypto": 1_500_000}


def main():
    dest = sys.argv[1]
    names = sorted(set(DEPS) | {d for ds in DEPS.values() for d in ds})
    rng = random.Random(20261202)
    with tempfile.TemporaryDirectory() as tmp:
        for i, name in enumerate(names):
            src = os.path.join(tmp, name)
            os.makedirs(os.path.join(src, name))
            deps = ", ".join('"%s>=1.0"' % d for d in DEPS.get(name, []))
            with open(os.path.join(src, "pyproject.toml"), "w") as f:
                f.write('[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n\n'
                        '[project]\nname = "%s"\nversion = "1.%d.%d"\ndescription = "pip case fixture"\n'
                        'dependencies = [%s]\n\n[tool.setuptools.package-data]\n%s = ["*.bin"]\n'
                        % (name, i % 7, i, deps, name))
            with open(os.path.join(src, name, "__init__.py"), "w") as f:
                f.write('"""%s (a fixture of the pip cases)."""\n' % name)
            with open(os.path.join(src, name, "payload.bin"), "wb") as f:
                f.write(rng.randbytes(SIZES.get(name, rng.randint(40_000, 800_000))))
            out = os.path.join(dest, name)
            os.makedirs(out, exist_ok=True)
            subprocess.run(["/usr/bin/python3", "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                            "--no-index", "-w", out, src], check=True)


if __name__ == "__main__":
    main()
