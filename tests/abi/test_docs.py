#!/usr/bin/env python3
"""The API reference builds without a warning, and documents every public function.

Runs Doxygen with the build's docs/Doxyfile (what `ninja -C BUILD docs`
runs; WARN_IF_UNDOCUMENTED, WARN_NO_PARAMDOC, FAIL_ON_WARNINGS), writing to
a temporary directory with XML output added, and fails on any warning. Then
checks in the XML that every function of lib/libiprof.map is documented with
a brief description, every parameter and its return value (non-void).

Thread safety and ownership are stated once (docs/api-1.0.md, section 2.8):
the file comment of <iprof/iprof.h> has the "Threads." and "Ownership."
paragraphs, the Threads one naming the exceptions that iprof.h declares;
each other header's file comment has a paragraph that refers to them
("Threads and ownership: as <iprof/iprof.h> says") and names the exceptions
that header declares; the exceptions carry a "Thread safety" paragraph (the
@threadsafety alias), which other functions no longer need.
"""
import os
import re
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import abicheck as A  # noqa: E402


# The functions that are exceptions to the Threads contract of <iprof/iprof.h>
# (docs/api-1.0.md, section 2.8): a const call that allocates, or a call
# that runs a second thread. Each must be exported.
THREAD_EXCEPTIONS = {
    'iprof_model_type_by_name', 'iprof_model_method_find', 'iprof_model_entry_find',
    'iprof_diff_new', 'iprof_model_get_columns', 'iprof_model_method_totals',
    'iprof_writer_write_model', 'iprof_model_load', 'iprof_model_merge_source',
}
CORE = 'iprof.h'
REFERENCE = 'Threads and ownership: as <iprof/iprof.h> says'


def file_comment(header):
    """The paragraphs of a header's leading /** ... */ comment, as text."""
    with open(os.path.join(A.SOURCE_DIR, 'include', 'iprof', header)) as f:
        src = f.read()
    m = re.match(r'\s*/\*\*(.*?)\*/', src, re.S)
    if not m:
        return src, []
    lines = [re.sub(r'^\s*\* ?', '', l) for l in m.group(1).split('\n')]
    paras = [' '.join(p.split()) for p in '\n'.join(lines).split('\n\n')]
    return src, [p for p in paras if p]


def check_contracts(public):
    """Each header states the contracts once; returns the problems found."""
    problems = []
    exceptions = THREAD_EXCEPTIONS & public
    for name in sorted(THREAD_EXCEPTIONS - public):
        problems.append('%s: a named exception to the Threads contract is not exported' % name)
    declared = {}
    comments = {}
    for h in A.PUBLIC_HEADERS:
        if h == 'version.h':
            continue
        src, paras = file_comment(h)
        comments[h] = ' '.join(p for p in paras if p.startswith(REFERENCE))
        for name in exceptions:
            if re.search(r'^IPROF_API\b[^(;]*\b%s\s*\(' % name, src, re.M):
                declared[name] = h
    _, core = file_comment(CORE)
    threads = [p for p in core if p.startswith('Threads.')]
    if not threads or 'Exceptions' not in threads[0]:
        problems.append('%s: no "Threads." paragraph naming its exceptions in the file comment'
                        % CORE)
    if not any(p.startswith('Ownership.') for p in core):
        problems.append('%s: no "Ownership." paragraph in the file comment' % CORE)
    for h, text in sorted(comments.items()):
        if h != CORE and REFERENCE not in text:
            problems.append('%s: no paragraph of the file comment starts "%s"' % (h, REFERENCE))
    for name in sorted(exceptions):
        h = declared.get(name)
        if h in (None, CORE):
            if threads and name + '()' not in threads[0]:
                problems.append('%s: an exception not named in the Threads paragraph of %s'
                                % (name, CORE))
        elif name + '()' not in comments[h]:
            problems.append('%s: an exception not named in the "%s" paragraph of %s'
                            % (name, REFERENCE, h))
    return problems


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
                if name in THREAD_EXCEPTIONS and \
                        not any(t.startswith('Thread safety') for t in titles):
                    problems.append('%s: an exception to the Threads contract without a '
                                    '@threadsafety paragraph' % name)
                has_return = any(s.get('kind') == 'return' for s in detail.iter('simplesect')) \
                    or any(pl.get('kind') == 'retval' for pl in detail.iter('parameterlist'))
                if text(m.find('type')) != 'void' and not has_return:
                    problems.append('%s: return value not documented' % name)
        for name in sorted(public - documented):
            problems.append('%s: exported but not in the reference' % name)
        problems += check_contracts(public)
        if problems:
            A.fail('the API reference is incomplete:\n  ' + '\n  '.join(problems))
        print('API reference: %d functions documented, no Doxygen warning' % len(documented))
    print('PASS')


if __name__ == '__main__':
    main()
