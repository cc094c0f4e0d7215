#!/usr/bin/env python3
"""Write the shell blocks of docs/howto-netboot.md, in order, as two scripts: the build steps
("```sh") and the steps on the boot network ("```sh {boot network}"), both after the "```sh {setup}"
blocks (the names every step uses). Each script runs with
"set -euo pipefail", so a block that fails stops it.

  howto-blocks.py HOWTO.md BUILD.sh SERVE.sh
"""
import re
import sys

text = open(sys.argv[1]).read()
build, serve = [], []
for info, body in re.findall(r'^```(sh[^\n]*)\n(.*?)^```$', text, re.M | re.S):
    if '{setup}' in info:
        build.append(body)
        serve.append(body)
    else:
        (serve if 'boot network' in info else build).append(body)
if not build or not serve:
    sys.exit('no shell blocks found')
for path, blocks in ((sys.argv[2], build), (sys.argv[3], serve)):
    with open(path, 'w') as f:
        f.write('set -euo pipefail\nset -x\n' + '\n'.join(blocks))
print(f'{len(build)} build blocks, {len(serve)} on the boot network')
