#!/usr/bin/env python3
"""The API reference builds without a warning, and documents every public function.

Runs Doxygen with the build's docs/Doxyfile (what `ninja -C BUILD docs`
runs; WARN_IF_UNDOCUMENTED, WARN_NO_PARAMDOC, FAIL_ON_WARNINGS), writing to
a temporary directory with XML output added, and fails on any warning. Then
checks in the XML that every function of lib/libiprof.map is documented with
a brief description, every parameter, its return value (non-void) and a
"Thread safety" paragraph (the @threadsafety alias).
"""
import os
import re
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import abicheck as A  # noqa: E402


def text(node):
    return ''.join(node.itertext()).strip() if node is not None else ''


def main():
    build = A.build_dir()
    doxygen = A.need('doxygen')
    doxyfile = os.path.join(build, 'docs', 'Doxyfile')
    if not os.path.exists(doxyfile):
        A.fail('%s is missing (docs/meson.build configures it)' % doxyfile)
    targets = A.run(['meson', 'introspect', '--targets', build], quiet=True, check=False).stdout
    if '"name": "docs"' not in targets:
        A.fail('the build has no "docs" target: doxygen was not found when the build was '
               'configured; meson setup --reconfigure %s' % build)
    with open(doxyfile) as f:
        config = f.read()
    with tempfile.TemporaryDirectory(prefix='iprof-docs-') as tmp:
        config += '\nOUTPUT_DIRECTORY = %s\nGENERATE_XML = YES\nWARN_LOGFILE = %s\n' % (
            tmp, os.path.join(tmp, 'warnings.log'))
        p = A.run([doxygen, '-'], check=False, input=config)
        with open(os.path.join(tmp, 'warnings.log')) as f:
            warnings = f.read().strip()
        if p.returncode != 0 or warnings or p.stdout.strip():
            print(p.stdout)
            print(warnings)
            A.fail('doxygen exited with %d and %d warnings (above)'
                   % (p.returncode, len(warnings.splitlines())))

        with open(os.path.join(A.SOURCE_DIR, 'lib', 'libiprof.map')) as f:
            public = set(re.findall(r'^\s+(iprof_\w+);', f.read(), re.M))
        documented, problems = set(), []
        for xml in os.listdir(os.path.join(tmp, 'xml')):
            if not xml.endswith('_8h.xml'):
                continue
            root = ET.parse(os.path.join(tmp, 'xml', xml)).getroot()
            for m in root.iter('memberdef'):
                if m.get('kind') != 'function':
                    continue
                name = text(m.find('name'))
                documented.add(name)
                detail = m.find('detaileddescription')
                titles = [text(t) for t in detail.iter('title')]
                if not text(m.find('briefdescription')):
                    problems.append('%s: no brief description' % name)
                if not any(t.startswith('Thread safety') for t in titles):
                    problems.append('%s: no @threadsafety paragraph' % name)
                has_return = any(s.get('kind') == 'return' for s in detail.iter('simplesect')) \
                    or any(pl.get('kind') == 'retval' for pl in detail.iter('parameterlist'))
                if text(m.find('type')) != 'void' and not has_return:
                    problems.append('%s: return value not documented' % name)
        for name in sorted(public - documented):
            problems.append('%s: exported but not in the reference' % name)
        if problems:
            A.fail('the API reference is incomplete:\n  ' + '\n  '.join(problems))
        print('API reference: %d functions documented, no Doxygen warning' % len(documented))
    print('PASS')


if __name__ == '__main__':
    main()
