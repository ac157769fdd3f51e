"""iprof.dask_merge: merging on Dask as a tree reduction gives the bytes of
`iprof merge` of the same files, for every tree shape, with weights, with
a Dask bag, on the synchronous scheduler and on a LocalCluster of two
worker processes, also when a worker dies in the middle of the run.

Needs Dask (Debian: python3-dask, python3-distributed for the cluster
tests), the `iprof` command ($IPROF, else $IPROF_BUILD_DIR/tools/iprof)
and the generator ($IPROF_GEN, else $IPROF_BUILD_DIR/bench/iprof-gen);
skips, saying which is missing, without them.
"""
import os
import random
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import support
import iprof

try:
    import dask
    import dask.bag as dask_bag
    HAVE_DASK = True
except ImportError:
    HAVE_DASK = False
try:
    import distributed
    HAVE_DISTRIBUTED = HAVE_DASK
except ImportError:
    HAVE_DISTRIBUTED = False

NO_DASK = "dask is not importable by %s (Debian: python3-dask)" % sys.executable
NO_DISTRIBUTED = "distributed is not importable by %s (Debian: python3-distributed)" \
    % sys.executable


def _tool(env, *parts):
    path = os.environ.get(env)
    if not path and os.environ.get("IPROF_BUILD_DIR"):
        path = os.path.join(os.environ["IPROF_BUILD_DIR"], *parts)
    return path if path and os.access(path, os.X_OK) else None


IPROF = _tool("IPROF", "tools", "iprof")
IPROF_GEN = _tool("IPROF_GEN", "bench", "iprof-gen")

# The generated inputs: (seed, size, version); the seeds share most names,
# so the merge sums entries as well as adding new ones.
GENERATED = [(1, "40K", "1.0.0"), (2, "30K", "1.0.0"), (3, "50K", "1.1.0"),
             (4, "20K", "1.0.0"), (5, "40K", "0.4.0"), (6, "30K", "1.1.0"),
             (7, "25K", "1.0.0"), (8, "35K", "1.0.0")]
TMP = None
FILES = []
# Weights whose products round (halves away from zero), zero and whole ones.
WEIGHTS = [0.5, 1.5, 2.0, 0.0, 1.0 / 3.0, 2.5, 1.0, 7.25]


def setUpModule():
    global TMP
    if not (HAVE_DASK and IPROF and IPROF_GEN):
        return
    TMP = tempfile.mkdtemp(prefix="iprof-dask-")
    for seed, size, version in GENERATED:
        path = os.path.join(TMP, "gen-%d.iprof" % seed)
        subprocess.run([IPROF_GEN, "--size", size, "--seed", str(seed), "--version", version,
                        "-o", path, "--quiet"], check=True, timeout=60)
        FILES.append(path)


def tearDownModule():
    if TMP:
        shutil.rmtree(TMP, ignore_errors=True)


def command_merge(paths, weights=None, extra=()):
    """The bytes `iprof merge` writes for *paths* (weights: a dict)."""
    args = [IPROF, "merge"] + ["--weight=%s=%r" % (k, float(w))
                               for k, w in (weights or {}).items()]
    r = subprocess.run(args + list(extra) + list(paths), capture_output=True, timeout=120)
    # 4: written without what --drop-unknown dropped
    if r.returncode and not (r.returncode == 4 and "--drop-unknown" in extra):
        raise AssertionError("iprof merge failed: %s" % r.stderr.decode(errors="replace"))
    return r.stdout


class Needs:
    """Skips, saying why, without dask, the command or the generator."""

    @classmethod
    def setUpClass(cls):
        if not HAVE_DASK:
            raise unittest.SkipTest(NO_DASK)
        if not IPROF:
            raise unittest.SkipTest("no iprof command (set IPROF or IPROF_BUILD_DIR)")
        if not IPROF_GEN:
            raise unittest.SkipTest("no iprof-gen (set IPROF_GEN or IPROF_BUILD_DIR)")


class SynchronousTest(Needs, unittest.TestCase):
    """Dask's synchronous scheduler: every tree shape, weights, options."""

    def merge(self, paths, output=None, **kwargs):
        kwargs.setdefault("scheduler", "sync")
        return iprof.dask_merge(paths, output, **kwargs)

    def test_every_tree_shape_gives_the_command_bytes(self):
        want = command_merge(FILES)
        for partition_size in (1, 2, 3, 8):
            for fan_in in (2, 3, 8):
                with self.subTest(partition_size=partition_size, fan_in=fan_in):
                    self.assertEqual(self.merge(FILES, partition_size=partition_size,
                                                fan_in=fan_in), want)
        self.assertEqual(self.merge(FILES), want)     # the default partitions

    def test_input_order_does_not_matter(self):
        want = command_merge(FILES)
        rng = random.Random(14)
        for _ in range(3):
            files = FILES[:]
            rng.shuffle(files)
            self.assertEqual(self.merge(files, partition_size=rng.randint(1, 3), fan_in=2),
                             want)

    def test_weights_dict_and_list(self):
        weights = dict(zip(FILES, WEIGHTS))
        want = command_merge(FILES, weights)
        self.assertNotEqual(want, command_merge(FILES))
        self.assertEqual(self.merge(FILES, weights=weights, partition_size=2, fan_in=2), want)
        self.assertEqual(self.merge(FILES, weights=WEIGHTS, partition_size=3, fan_in=2), want)
        partial = {FILES[0]: 0.5, FILES[5]: 3}
        self.assertEqual(self.merge(FILES, weights=partial, partition_size=1, fan_in=3),
                         command_merge(FILES, partial))

    def test_directory_operand_and_its_weight(self):
        with tempfile.TemporaryDirectory() as d:
            for f in FILES[:4]:
                shutil.copy(f, d)
            subprocess.run(["gzip", "-k", os.path.join(d, "gen-1.iprof")], check=True)
            os.rename(os.path.join(d, "gen-1.iprof.gz"), os.path.join(d, "z.iprof.gz"))
            open(os.path.join(d, "notes.txt"), "w").close()
            one = os.path.join(d, "gen-2.iprof")
            weights = {d: 2, one: 0.5, FILES[6]: 3}
            want = command_merge([d, FILES[6]], weights)
            self.assertEqual(self.merge([d, FILES[6]], weights=weights, partition_size=2,
                                        fan_in=2), want)
            # The output in the directory is last run's result: left out, as
            # the command leaves it out (each rerun counted everything again).
            out = os.path.join(d, "merged.iprof")
            plain = command_merge([d])
            for _ in range(2):
                self.merge([d], out, partition_size=2)
                with open(out, "rb") as f:
                    self.assertEqual(f.read(), plain)
            self.assertEqual(command_merge([d], extra=["-o", out]), b"")
            with open(out, "rb") as f:
                self.assertEqual(f.read(), plain)

    def test_instanceof_spelling_versions_and_unknown_keys(self):
        # A 1.1.0 file without instanceof key (AUTO) and one spelling it
        # "instanceofProfiles" (LOWER) in different leaves: the command keeps
        # LOWER; only carrying AUTO beside the intermediate bytes does too.
        with tempfile.TemporaryDirectory() as d:
            nokey = os.path.join(d, "nokey.iprof")
            with open(nokey, "wb") as f:
                f.write(support.doc(version="1.1.0", types=[(0, "A"), (1, "void")],
                                    methods=[(1, "m", [0, 1])],
                                    callCountProfiles=[("1:0", [5])]))
            pair = [nokey, support.data("small-1.1.0.iprof")]
            want = command_merge(pair)
            self.assertIn(b'"instanceofProfiles"', want)
            self.assertEqual(self.merge(pair, partition_size=1), want)
            mix = [support.data(n) for n in (
                "graal-0.4.0.iprof", "graal-1.0.0.iprof.gz", "graalvm25-plain-unknown.iprof",
                "small-1.1.0.iprof", "post-a.iprof", "post-b.iprof", "future-1.2.0.iprof",
                "graalvm25.iprof")] + [nokey]
            rng = random.Random(3)
            for _ in range(6):
                files = rng.sample(mix, rng.randint(2, len(mix)))
                with self.subTest(files=[os.path.basename(f) for f in files]):
                    self.assertEqual(self.merge(files, partition_size=1, fan_in=2),
                                     command_merge(files))

    def test_drop_unknown_and_strict(self):
        files = [support.data("graalvm25-unknown.iprof"), support.data("graalvm25.iprof"),
                 FILES[2]]
        with self.assertRaises(iprof.SchemaError):
            self.merge(files, partition_size=1)
        self.assertEqual(self.merge(files, partition_size=1, drop_unknown=True),
                         command_merge(files, extra=["--drop-unknown"]))
        self.assertEqual(self.merge(FILES[:3], strict=True, threaded=True, partition_size=1),
                         command_merge(FILES[:3], extra=["--strict"]))
        # Keys of elements, which the library does not read: refused as by
        # `iprof merge`, unless dropped.
        with tempfile.TemporaryDirectory() as d:
            odd = os.path.join(d, "odd.iprof")
            with open(support.data("graalvm25.iprof"), "rb") as f:
                raw = f.read()
            with open(odd, "wb") as f:
                f.write(raw.replace(b'"name":"int"}', b'"name":"int","x":1}', 1))
            files = [odd, FILES[0]]
            with self.assertRaises(iprof.SchemaError) as cm:
                self.merge(files, partition_size=1)
            self.assertIn('types[1], key "x"', str(cm.exception))
            self.assertEqual(self.merge(files, partition_size=1, drop_unknown=True),
                             command_merge(files, extra=["--drop-unknown"]))

    def test_output_options(self):
        with tempfile.TemporaryDirectory() as d:
            for name, extra, kwargs in (("a.iprof", [], {}),
                                        ("b.iprof.gz", [], {}),
                                        ("c.iprof", ["--pretty", "--instanceof-key",
                                                     "instanceof"],
                                         {"pretty": True, "instanceof_key": "instanceof"})):
                with self.subTest(name=name):
                    ref, out = os.path.join(d, "ref-" + name), os.path.join(d, name)
                    subprocess.run([IPROF, "merge", "-o", ref] + extra + FILES, check=True,
                                   timeout=120)
                    self.assertEqual(self.merge(FILES, out, partition_size=3, **kwargs), out)
                    with open(ref, "rb") as f, open(out, "rb") as g:
                        self.assertEqual(f.read(), g.read())
            self.assertEqual(sorted(n for n in os.listdir(d) if n.startswith(".")), [])
        # Replacing a file as the library does: a 255-byte name (the temporary
        # name is short), the mode kept, the owner too (as root), nothing
        # left beside it.
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "n" * 249 + ".iprof")
            with open(out, "wb") as f:
                f.write(b"old")
            os.chmod(out, 0o640)
            if os.geteuid() == 0:
                os.chown(out, 65534, 65534)
            self.assertEqual(self.merge(FILES, out, partition_size=3), out)
            st = os.stat(out)
            self.assertEqual(stat.S_IMODE(st.st_mode), 0o640)
            if os.geteuid() == 0:
                self.assertEqual((st.st_uid, st.st_gid), (65534, 65534))
            with open(out, "rb") as f:
                self.assertEqual(f.read(), command_merge(FILES))
            self.assertEqual(os.listdir(d), [os.path.basename(out)])
            # Through a link, the name of the file written says gzip.
            os.symlink("real.iprof.gz", os.path.join(d, "link.iprof"))
            self.merge(FILES, os.path.join(d, "link.iprof"), partition_size=3)
            with open(os.path.join(d, "real.iprof.gz"), "rb") as f:
                self.assertEqual(f.read(2), b"\x1f\x8b")
            # A descriptor's path is written at its offset, as text, whatever
            # file is behind it (here one named .gz, holding a head).
            behind = os.path.join(d, "behind.gz")
            with open(behind, "wb") as f:
                f.write(b"head;")
            fd = os.open(behind, os.O_WRONLY | os.O_APPEND)
            try:
                self.merge(FILES, "/dev/fd/%d" % fd, partition_size=3)
            finally:
                os.close(fd)
            with open(behind, "rb") as f:
                self.assertEqual(f.read(), b"head;" + command_merge(FILES))
        data = self.merge(FILES, gzip=True)
        self.assertEqual(data[:2], b"\x1f\x8b")
        with iprof.load(data) as m:
            self.assertEqual(m.write(), command_merge(FILES))

    def test_intermediate_compression(self):
        want = command_merge(FILES)
        for level in (0, 1, 9):
            with self.subTest(compresslevel=level):
                self.assertEqual(self.merge(FILES, partition_size=2, fan_in=3,
                                            compresslevel=level), want)

    def test_threads_scheduler(self):
        self.assertEqual(self.merge(FILES, weights=WEIGHTS, scheduler="threads",
                                    partition_size=1, fan_in=2),
                         command_merge(FILES, dict(zip(FILES, WEIGHTS))))

    def test_a_bag_on_the_synchronous_scheduler(self):
        bag = dask_bag.from_sequence(FILES, npartitions=3)
        self.assertEqual(self.merge(bag, fan_in=2), command_merge(FILES))
        # A weight key no input of the bag has fails, as for a list (the
        # root, which sees every input, checks); one that does is fine.
        weights = {FILES[2]: 2}
        self.assertEqual(self.merge(bag, weights=weights, fan_in=2),
                         command_merge(FILES, weights))
        for parts in (1, 3):
            bag = dask_bag.from_sequence(FILES, npartitions=parts)
            with self.assertRaisesRegex(ValueError, "weight names no input: 'typo.iprof'"):
                self.merge(bag, weights={FILES[2]: 2, "typo.iprof": 5}, fan_in=2)

    def test_a_lenient_leaf_newer_than_its_version(self):
        # A file that says 1.0.0 but holds instanceof entries (read
        # leniently): its leaf cannot write it at 1.0.0; the intermediate is
        # written at the latest version and carries 1.0.0 beside it, so any
        # tree gives the command's bytes, version included.
        with tempfile.TemporaryDirectory() as d:
            old = os.path.join(d, "old.iprof")
            with open(support.data("small-1.1.0.iprof"), "rb") as f:
                data = f.read()
            self.assertIn(b'"version": "1.1.0"', data)
            with open(old, "wb") as f:
                f.write(data.replace(b'"version": "1.1.0"', b'"version": "1.0.0"', 1))
            plain = os.path.join(d, "plain.iprof")
            with open(plain, "wb") as f:
                f.write(support.doc(version="01.0.0", types=[(0, "A"), (1, "void")],
                                    methods=[(1, "m", [0, 1])],
                                    callCountProfiles=[("1:0", [5])]))
            for files in ([old, FILES[2]], [FILES[0], old, FILES[2]], [plain, FILES[0]],
                          [FILES[0], plain, FILES[1]]):
                want = command_merge(files)
                for size in (1, 2):
                    with self.subTest(files=[os.path.basename(f) for f in files], size=size):
                        self.assertEqual(self.merge(files, partition_size=size, fan_in=2),
                                         want)

    def test_a_merge_error_names_its_file(self):
        # Not a read error (those name their file already): a reference to
        # a method the input does not define, found by the merge.
        with tempfile.TemporaryDirectory() as d:
            bad = os.path.join(d, "dangling.iprof")
            with open(bad, "wb") as f:
                f.write(support.doc(version="1.0.0", types=[(0, "A"), (1, "void")],
                                    methods=[(1, "m", [0, 1])],
                                    callCountProfiles=[("999999:0", [5])]))
            with self.assertRaises(iprof.DanglingReferenceError) as cm:
                self.merge(FILES[:2] + [bad] + FILES[2:4], partition_size=1, fan_in=2)
            self.assertEqual(cm.exception.filename, bad)
            self.assertIn(bad, str(cm.exception))

    def test_bad_arguments_and_inputs(self):
        with self.assertRaisesRegex(ValueError, "fan_in"):
            self.merge(FILES, fan_in=1)
        with self.assertRaisesRegex(ValueError, "compresslevel"):
            self.merge(FILES, compresslevel=10)
        with self.assertRaisesRegex(ValueError, "partition_size"):
            self.merge(FILES, partition_size=0)
        with self.assertRaisesRegex(ValueError, "names no input"):
            self.merge(FILES, weights={"nowhere.iprof": 2})
        with self.assertRaisesRegex(ValueError, "finite and >= 0"):
            self.merge(FILES, weights=[-1] + WEIGHTS[1:])
        with self.assertRaisesRegex(ValueError, "2 for 8 paths"):
            self.merge(FILES, weights=[1, 2])
        with self.assertRaisesRegex(ValueError, "no input"):
            self.merge([])
        with self.assertRaises(ValueError):
            self.merge(FILES, instanceof_key="InstanceOF")
        with self.assertRaises(iprof.JSONSyntaxError):
            self.merge(FILES + [support.data("syntax-error.iprof")], partition_size=2)
        with self.assertRaises(iprof.Error):
            self.merge([os.path.join(TMP, "missing.iprof")])


# ---- a LocalCluster of two worker processes --------------------------------

def _die_once(path, victim, marker):
    """A bag map: the first task to reach *victim* while *marker* exists
    takes the marker, writes its pid in it and kills its own worker process."""
    if path == victim:
        try:
            os.rename(marker, marker + ".taken")
        except FileNotFoundError:
            pass
        else:
            with open(marker + ".taken", "w") as f:
                f.write(str(os.getpid()))
            os._exit(17)
    return path


def _wait_for(path, gate, timeout=60):
    """A bag map: holds *path* until the file *gate* exists."""
    if path != gate[0]:
        return path
    end = time.monotonic() + timeout
    while not os.path.exists(gate[1]) and time.monotonic() < end:
        time.sleep(0.02)
    return path


@unittest.skipUnless(HAVE_DISTRIBUTED, NO_DISTRIBUTED)
class ClusterTest(Needs, unittest.TestCase):
    """One LocalCluster(n_workers=2, threads_per_worker=1, processes=True)
    for every test of the class."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        import logging
        # Worker deaths, restarts and failed tasks are what the tests cause:
        # quiet in this process (scheduler, nannies) and in the worker
        # processes (they read the variable when they start).
        cls.log_level = logging.getLogger("distributed").level
        logging.getLogger("distributed").setLevel(logging.CRITICAL)
        cls.log_env = os.environ.get("DASK_LOGGING__DISTRIBUTED")
        os.environ["DASK_LOGGING__DISTRIBUTED"] = "critical"
        # A task is run again after as many worker deaths (the default).
        with dask.config.set({"distributed.scheduler.allowed-failures": 3}):
            cls.cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1,
                                                   processes=True, dashboard_address=None)
        cls.client = distributed.Client(cls.cluster)

    @classmethod
    def tearDownClass(cls):
        import logging
        cls.client.close()
        cls.cluster.close()
        logging.getLogger("distributed").setLevel(cls.log_level)
        if cls.log_env is None:
            os.environ.pop("DASK_LOGGING__DISTRIBUTED", None)
        else:
            os.environ["DASK_LOGGING__DISTRIBUTED"] = cls.log_env

    def pids(self):
        return self.client.run(os.getpid)

    def await_restart(self, dead):
        """Waits until two workers run again, none of them process *dead*."""
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                self.client.wait_for_workers(2, timeout=10)
                pids = self.pids()
                if len(pids) == 2 and not set(pids.values()) & set(dead):
                    return
            except (OSError, distributed.TimeoutError):
                pass
            time.sleep(0.1)
        self.fail("the workers of processes %s were not replaced" % sorted(dead))

    def test_the_command_bytes_on_two_workers(self):
        want = command_merge(FILES)
        # The current client by default, or given.
        self.assertEqual(iprof.dask_merge(FILES, partition_size=2, fan_in=2), want)
        self.assertEqual(iprof.dask_merge(FILES, client=self.client), want)
        weights = dict(zip(FILES, WEIGHTS))
        self.assertEqual(iprof.dask_merge(FILES, weights=weights, client=self.client,
                                          partition_size=1, fan_in=3),
                         command_merge(FILES, weights))

    def test_a_scheduler_address(self):
        self.assertEqual(iprof.dask_merge(FILES, client=self.cluster.scheduler_address,
                                          partition_size=3), command_merge(FILES))

    def test_a_bag_of_paths_and_of_weighted_pairs(self):
        bag = dask_bag.from_sequence(FILES, npartitions=4)
        self.assertEqual(iprof.dask_merge(bag, fan_in=2), command_merge(FILES))
        weights = dict(zip(FILES, WEIGHTS))
        want = command_merge(FILES, weights)
        self.assertEqual(iprof.dask_merge(bag, weights=weights, fan_in=3), want)
        pairs = dask_bag.from_sequence(list(zip(FILES, WEIGHTS)), npartitions=3)
        self.assertEqual(iprof.dask_merge(pairs, fan_in=2), want)
        # Empty partitions are skipped.
        sparse = dask_bag.from_sequence(FILES, npartitions=8).filter(lambda p: "-1." in p or
                                                                       "-8." in p)
        self.assertEqual(iprof.dask_merge(sparse, fan_in=2),
                         command_merge([FILES[0], FILES[7]]))

    def test_an_input_error_reaches_the_caller(self):
        with self.assertRaises(iprof.JSONSyntaxError):
            iprof.dask_merge(FILES + [support.data("syntax-error.iprof")], partition_size=3)

    def test_a_worker_that_dies_in_a_task(self):
        """A task kills its own worker process (os._exit) the first time:
        the scheduler runs it again elsewhere; same bytes."""
        weights = dict(zip(FILES, WEIGHTS))
        want = command_merge(FILES, weights)
        with tempfile.TemporaryDirectory() as d:
            marker = os.path.join(d, "die")
            open(marker, "w").close()
            bag = dask_bag.from_sequence(FILES, npartitions=4).map(_die_once, FILES[5], marker)
            self.assertEqual(iprof.dask_merge(bag, weights=weights, fan_in=2), want)
            self.assertTrue(os.path.exists(marker + ".taken"), "no worker died")
            with open(marker + ".taken") as f:
                dead = int(f.read())
        self.await_restart([dead])

    def test_a_worker_killed_holding_partial_results(self):
        """SIGKILL of the worker that holds finished leaf or inner results
        while another partition is still running: they are computed again;
        same bytes."""
        want = command_merge(FILES)
        pids = self.pids()
        with tempfile.TemporaryDirectory() as d:
            gate = (FILES[7], os.path.join(d, "go"))
            bag = dask_bag.from_sequence(FILES, npartitions=4).map(_wait_for, gate)
            result = {}

            def run():
                try:
                    result["data"] = iprof.dask_merge(bag, fan_in=2, client=self.client)
                except BaseException as e:   # reported by the assertion below
                    result["error"] = e
            t = threading.Thread(target=run)
            t.start()
            victim = None
            end = time.monotonic() + 60
            while victim is None and time.monotonic() < end:
                for key, where in self.client.who_has().items():
                    name = key if isinstance(key, str) else str(key)
                    if name.startswith(("iprof-leaf-", "iprof-merge-")) and where:
                        victim = where[0]
                        break
                time.sleep(0.02)
            self.assertIsNotNone(victim, "no partial result in worker memory")
            os.kill(pids[victim], signal.SIGKILL)
            open(gate[1], "w").close()
            t.join(120)
            self.assertFalse(t.is_alive(), "the merge did not finish")
        self.assertNotIn("error", result)
        self.assertEqual(result["data"], want)
        self.await_restart([pids[victim]])


if __name__ == "__main__":
    unittest.main()
