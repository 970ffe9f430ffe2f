"""Executes a notebook of notebooks/ with nbclient (Debian python3-nbclient) so that it cannot rot: fails if
the stored file has outputs (notebooks are stored without them), if a cell raises, or if a cell takes longer
than the timeout. usage: run_notebook.py NOTEBOOK [TIMEOUT_SECONDS]"""
import sys
import time

import nbformat
from nbclient import NotebookClient


def main(path, timeout):
    nb = nbformat.read(path, as_version=4)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and (cell.get("outputs") or cell.get("execution_count") is not None):
            print(f"{path}: cell {i} has stored outputs; store notebooks without outputs")
            return 1
    t0 = time.time()
    NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=False).execute()
    print(f"{path}: {len(nb.cells)} cells executed in {time.time() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 120))
