"""cardgen runs on Linux, macOS and Windows (README.md): no call that only POSIX systems have
runs unguarded in generator/, and the build lock is the system's own (filelock)."""

from __future__ import annotations

import ast
import threading
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "generator"

# Modules that exist only on POSIX systems (or not on Windows).
POSIX_MODULES = {"fcntl", "termios", "tty", "pty", "resource", "pwd", "grp", "posix", "crypt",
                 "syslog", "readline", "nis", "spwd"}
# Names of os and signal that Windows lacks.
POSIX_NAMES = {
    "os": {"fork", "forkpty", "getuid", "geteuid", "getgid", "getegid", "getgroups", "getpgid",
           "getpgrp", "setsid", "setpgrp", "setuid", "setgid", "killpg", "uname", "statvfs",
           "mkfifo", "mknod", "chown", "lchown", "fchown", "nice", "wait3", "wait4", "sync",
           "getloadavg", "sysconf", "pathconf", "O_NOFOLLOW", "O_CLOEXEC", "O_DIRECTORY",
           "O_NONBLOCK", "O_NOCTTY", "O_SYNC", "O_DSYNC"},
    "signal": {"SIGKILL", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGCHLD",
               "SIGPIPE", "SIGSTOP", "SIGCONT", "SIGTSTP", "SIGWINCH", "alarm", "pause",
               "setitimer", "siginterrupt", "pthread_kill", "pthread_sigmask"},
}


def _guarded_names(function: ast.AST) -> set[str]:
    """Names a function tests for before it uses them: hasattr(os, "sync"),
    getattr(os, "O_NOFOLLOW", 0)."""
    return {node.args[1].value for node in ast.walk(function)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in ("hasattr", "getattr") and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)}


def _under_platform_test(node: ast.AST, parents: dict) -> bool:
    """Whether `node` lies under an `if` that asks which system it is, or a `try` that
    catches ImportError or AttributeError."""
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and any(
                isinstance(n, ast.Attribute) and n.attr in ("platform", "name")
                and isinstance(n.value, ast.Name) and n.value.id in ("sys", "os")
                for n in ast.walk(node.test)):
            return True
        if isinstance(node, ast.Try) and any(
                isinstance(h.type, ast.Name) and h.type.id in ("ImportError",
                                                               "ModuleNotFoundError",
                                                               "AttributeError")
                for h in node.handlers):
            return True
    return False


def posix_only(source: str) -> list[tuple[int, str]]:
    """(line, what) for each POSIX-only import or name used without a guard in `source`."""
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            modules = [(node.module or "").split(".")[0]]
            modules += [f"{node.module}.{alias.name}" for alias in node.names
                        if alias.name in POSIX_NAMES.get(node.module or "", ())]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                node.attr in POSIX_NAMES.get(node.value.id, ()):
            modules = [f"{node.value.id}.{node.attr}"]
        else:
            continue
        for what in modules:
            if what.split(".")[0] not in POSIX_MODULES and "." not in what:
                continue
            if _under_platform_test(node, parents):
                continue
            scope = node
            while scope in parents and not isinstance(scope, (ast.FunctionDef,
                                                              ast.AsyncFunctionDef)):
                scope = parents[scope]
            if what.rpartition(".")[2] in _guarded_names(scope):
                continue
            found.append((node.lineno, what))
    return found


def test_no_posix_only_call_runs_unguarded_in_generator():
    found = [f"{path.relative_to(PACKAGE)}:{line}: {what}"
             for path in sorted(PACKAGE.rglob("*.py"))
             for line, what in posix_only(path.read_text("utf-8"))]
    assert not found, found


def test_the_scan_sees_posix_only_calls_and_their_guards():
    assert posix_only("import fcntl\n") == [(1, "fcntl")]
    assert posix_only("import os\nos.open('x', os.O_RDWR | os.O_NOFOLLOW)\n") == \
        [(2, "os.O_NOFOLLOW")]
    assert posix_only("import signal\nsignal.signal(signal.SIGHUP, print)\n") == \
        [(2, "signal.SIGHUP")]
    assert posix_only("def f():\n    import os\n    if hasattr(os, 'sync'):\n"
                      "        os.sync()\n") == []
    assert posix_only("import os\nflag = getattr(os, 'O_NOFOLLOW', 0)\n") == []
    assert posix_only("import sys\nif sys.platform != 'win32':\n    import fcntl\n") == []
    assert posix_only("try:\n    import termios\nexcept ImportError:\n    termios = None\n") \
        == []
    assert posix_only("import signal\nsignal.signal(signal.SIGTERM, print)\n") == []


def test_a_link_planted_where_the_lock_goes_is_not_followed(tmp_path):
    """The build lock lies in output/.cache; a link put in its place is not written
    through (the fcntl lock opened it with O_NOFOLLOW): the file it points to stays."""
    from generator.write import one_build_at_a_time
    target = tmp_path / "precious.txt"
    target.write_text("keep me", "utf-8")
    lock = tmp_path / "cache" / "game.lock"
    lock.parent.mkdir()
    lock.symlink_to(target)
    with one_build_at_a_time(lock):
        assert not lock.is_symlink()
    assert target.read_text("utf-8") == "keep me"


def test_the_lock_is_held_across_threads_and_given_back(tmp_path):
    """Two writers of one game, one after the other: the second waits for the first, then
    takes the lock; after both, it is free at once."""
    from generator.write import one_build_at_a_time
    lock, order, waited = tmp_path / "g.lock", [], threading.Event()

    def second():
        with one_build_at_a_time(lock, waited.set):
            order.append("second")

    with one_build_at_a_time(lock):
        thread = threading.Thread(target=second)
        thread.start()
        assert waited.wait(5)
        order.append("first")
    thread.join(5)
    free = threading.Event()
    with one_build_at_a_time(lock, free.set):
        pass
    assert order == ["first", "second"] and not free.is_set()
