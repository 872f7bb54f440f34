"""The small files the file functions' cases read, written into a scratch directory.

The recording script writes them where ``terraform console`` runs; the test writes them into a
temporary directory behind a fake context. Kept as bytes here (not as files in the repository)
because one of them is deliberately not valid UTF-8.
"""

from __future__ import annotations

from pathlib import Path

FILES: dict[str, bytes] = {
    "hello.txt": b"Hello World\n",
    "empty.txt": b"",
    "unicode.txt": "h\u00e9llo \u2603\n".encode(),
    "latin1.bin": b"caf\xe9\n",
    "crlf.txt": b"a\r\nb\r\n",
    "greeting.tftpl": b"Hello, ${name}!",
    "list.tftpl": b"%{ for x in items ~}\n- ${x}\n%{ endfor ~}\n",
    "json.tftpl": b"${jsonencode({a = a, b = [1, 2]})}",
    "broken.tftpl": b"${",
    "config/app.yaml": b"name: app\nreplicas: 3\n",
    "config/db.yaml": b"name: db\n",
    "config/notes.txt": b"notes\n",
    "config/nested/deep.yaml": b"deep: true\n",
    "config/nested/more/deeper.json": b"{}\n",
    ".hidden/secret.txt": b"s\n",
    "dir.d/file": b"x\n",
}


def write_files(directory: Path) -> None:
    """Write every file of :data:`FILES` under ``directory``."""
    for name, content in FILES.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
