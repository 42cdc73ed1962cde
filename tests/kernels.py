"""One Jupyter kernel for many notebooks or cells, each started as if the kernel were new.

Starting a kernel and importing the course in it costs 1-3 s; the suite used to do that for every notebook and for
every cell of every pupil lesson. `one_kernel(folder)` starts one kernel, and `KernelRun.run(code)` runs code in it
after `fresh()`: the widgets made before are closed, the course's modules are dropped from `sys.modules` (the next
import reads them anew, with fresh module state), the working folder is `folder` again and the user namespace is
emptied (`%reset -f`), so the code cannot lean on a name, an import, a module state or a folder left by what ran
before. What a new kernel would also reset and this does not (the state of other packages, such as random's seed)
cannot make code fail with a missing name or import; tests/test_pupil_lessons.py::test_run_alone_catches_a_name_from_an_earlier_cell
shows that the reset works.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
import time

GRACE = 10.0          # seconds iopub gets after the kernel's reply (see KernelRun.execute)


def stacks_path(pid: int) -> Path:
    "Where the kernel with this process id writes its stacks when asked (KernelRun.stacks)."
    import tempfile
    return Path(tempfile.gettempdir()) / f"plump-teach-kernel-{pid}-stacks.txt"


def fresh_code(folder: Path) -> str:
    """What runs before each piece of code; the reset comes last and leaves no name of its own behind.

    The widgets of the code before are closed first, as a new kernel has none: `%reset -f` leaves them open
    (ipywidgets keeps every open widget), and hundreds of them made each later cell slower (the twelve pupil lessons
    cell by cell, twice over in one kernel: 116 s with them kept, 49 s with them closed)."""
    return ("_w = __import__('sys').modules.get('ipywidgets')\n"
            "if _w is not None: _w.Widget.close_all()\n"
            "[__import__('sys').modules.pop(m) for m in list(__import__('sys').modules) "
            "if m == 'plump_teach' or m.startswith('plump_teach.')]\n"
            f"__import__('os').chdir({str(folder)!r})\n"
            "get_ipython().run_line_magic('reset', '-f')")


@dataclass
class Result:
    "What one piece of code gave: its errors (name: value), and its display outputs (the messages' content)."
    errors: list[str] = field(default_factory=list)
    outputs: list[dict] = field(default_factory=list)
    complete: bool = True          # False: the kernel replied, but its 'idle' on iopub never came (see `execute`)


@dataclass
class KernelRun:
    client: object
    folder: Path
    pid: int = 0

    def execute(self, code: str, timeout: float) -> Result:
        """Run `code` and collect what it shows. The end is the kernel's reply on the shell channel, which is never
        dropped; its outputs and its 'idle' come on iopub, a publish socket that may drop a message. CI once waited
        240 s for an 'idle' on lesson 7 (818 widget messages in one cell) although the cell takes 0.3 s, so after the
        reply iopub gets `GRACE` seconds more, and the result says whether the 'idle' came (`complete`). With no
        reply within `timeout` the kernel really hangs: the error then holds the stacks of its threads."""
        import queue
        kc = self.client
        res, msg_id = Result(), kc.execute(code)
        deadline, reply, idle, grace_end = time.monotonic() + timeout, None, False, None
        while not idle:
            now = time.monotonic()
            if reply is None and now > deadline:
                raise TimeoutError(f"the kernel gave no reply in {timeout:g} s; its stacks:\n{self.stacks()}")
            if reply is not None and now > grace_end: break
            if reply is None and kc.shell_channel.msg_ready():
                msg = kc.get_shell_msg(timeout=1)
                if msg["parent_header"].get("msg_id") == msg_id: reply, grace_end = msg, now + GRACE
                continue
            try: msg = kc.get_iopub_msg(timeout=0.05)
            except queue.Empty: continue
            if msg["parent_header"].get("msg_id") != msg_id: continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "status": idle = content["execution_state"] == "idle"
            elif kind == "error": res.errors.append(f"{content['ename']}: {content['evalue']}")
            elif kind in ("display_data", "execute_result", "stream"): res.outputs.append({"output_type": kind, **content})
        if reply is None:                                   # 'idle' came first: the reply is on its way
            reply = kc.get_shell_msg(timeout=max(1.0, deadline - time.monotonic()))
        res.complete = idle
        if not idle:
            import warnings
            warnings.warn(f"the kernel replied, but its 'idle' did not come within {GRACE:g} s: outputs may be missing")
        content = reply["content"]
        if content["status"] != "ok" and not res.errors: res.errors.append(f"{content.get('ename')}: {content.get('evalue')}")
        return res

    def stacks(self) -> str:
        "The stacks of every thread in the kernel (faulthandler, on SIGUSR1; set up by `fresh_code`)."
        import os, signal
        path = stacks_path(self.pid)
        try:
            os.kill(self.pid, signal.SIGUSR1)
            time.sleep(1)
            return path.read_text()[:6000]          # the main thread first
        except OSError as e: return f"(no stacks: {e})"

    def fresh(self, timeout: float = 60):
        r = self.execute(fresh_code(self.folder), timeout)
        assert not r.errors, ("fresh()", r.errors)

    def run(self, code: str, timeout: float = 120) -> Result:
        "`code` in a kernel as good as new (fresh() first)."
        self.fresh()
        return self.execute(code, timeout)

    def run_cells(self, cells: list[str], timeout: float = 240) -> list[Result]:
        "A notebook's code cells in order, in a kernel as good as new; stops after the first cell with an error."
        self.fresh()
        results = []
        for src in cells:
            results.append(self.execute(src, timeout))
            if results[-1].errors: break
        return results


@contextmanager
def one_kernel(folder: Path):
    from jupyter_client.manager import start_new_kernel
    km, kc = start_new_kernel(kernel_name="python3", cwd=str(folder))
    try:
        run = KernelRun(kc, folder, km.provisioner.pid)
        kc.execute_interactive(f"import faulthandler, signal; faulthandler.register(signal.SIGUSR1, "
                               f"open({str(stacks_path(run.pid))!r}, 'w'), all_threads=True)", timeout=60)
        yield run
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
        stacks_path(run.pid).unlink(missing_ok=True)
