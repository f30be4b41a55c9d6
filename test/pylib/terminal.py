"""Runs a program with a terminal (a pty) for its stderr, as a person has.

The runtime prints its notices (the exit summary, the sampler fallback,
advice) only when stderr is a terminal, so the tests that check them run
the program this way, and check the silence with a pipe."""
import os
import pty
import subprocess


def run_on_terminal(cmd, env, timeout, **popen_args):
    """Like subprocess.run(cmd, stdout=PIPE, text=True); the result's
    stderr is what the terminal showed (newlines as "\\n")."""
    master, slave = pty.openpty()
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=slave,
                         text=True, **popen_args)
    os.close(slave)
    try:
        out, _ = p.communicate(timeout=timeout)
    finally:
        p.kill()
        p.wait()
    shown = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the program, the pty's other side, is gone
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    return subprocess.CompletedProcess(cmd, p.returncode, out,
                                       shown.decode().replace("\r\n", "\n"))
