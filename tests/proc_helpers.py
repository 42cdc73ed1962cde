"""För testerna av plump-teach: en ledig port, och processer ur /proc (vilka som finns under en process, och om en
process lever)."""
from __future__ import annotations

import os
import socket
from pathlib import Path


def children(pid: int) -> list[int]:
    "Processerna under `pid` (rekursivt), ur /proc."
    kids = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit(): continue
        try: ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError): continue
        if ppid == pid: kids.append(int(d.name))
    return kids + [g for k in kids for g in children(k)]


def alive(pid: int) -> bool:
    "Lever processen `pid` (och är inte en zombie)?"
    try:
        os.kill(pid, 0)
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError): return False


def free_port() -> int:
    "En ledig port på 127.0.0.1."
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
