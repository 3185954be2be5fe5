#!/usr/bin/env python3
"""Cycles among the crate's modules, read from its `crate::` and `super::`
paths (no compiler needed).

Two graphs are checked:
  - the top-level modules of src/ (`clerk`, `run`, `store`, ...): an edge
    A -> B where a file under A names `crate::B`;
  - the files of each folder (`clerk/identify.rs`, `clerk/letters.rs`, ...):
    an edge where one names a sibling by `super::sibling` (or
    `crate::folder::sibling`).
Tests (`tests.rs`, `tests/`, `#[cfg(test)]` modules) are left out: a test
may look anywhere. Prints each cycle found and exits 1 if there is one;
`--report` prints them and exits 0.
"""
import os
import re
import sys

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
PATH = re.compile(r"\b(crate|super)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
USE_GROUP = re.compile(r"\buse\s+(crate|super)::\{([^;]*)\}", re.S)


def module_of(rel):
    """`clerk/identify.rs` -> ['clerk', 'identify']; `clerk/mod.rs` -> ['clerk']."""
    parts = rel[:-3].split(os.sep)
    if parts[-1] == "mod":
        parts = parts[:-1]
    if parts in (["lib"], ["main"]):
        return []
    return parts


def without_tests(text):
    """The text before a `#[cfg(test)]` module at the end of a file."""
    at = text.find("#[cfg(test)]\nmod tests")
    return text if at < 0 else text[:at]


def paths(text):
    """Every path a file names, as lists of segments, `crate` or `super` first."""
    text = re.sub(r"//[^\n]*", "", text)
    found = [[m.group(1)] + m.group(2).split("::")[1:] for m in PATH.finditer(text)]
    for m in USE_GROUP.finditer(text):
        for item in re.split(r",(?![^{]*\})", m.group(2)):
            names = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", item)
            if names:
                found.append([m.group(1)] + names[:1])
    return found


def resolve(module, is_mod, path):
    """The absolute module path a `crate::`/`super::` path starts in."""
    head, rest = path[0], path[1:]
    if head == "crate":
        return rest
    base = module if is_mod else module[:-1]
    # `super` from a file `a/b.rs` is `a`; from `a/mod.rs` it is a's parent.
    base = base[:-1] if is_mod else base
    while rest and rest[0] == "super":
        base, rest = base[:-1], rest[1:]
    return base + rest


def cycles(graph):
    """Each strongly connected set of more than one node (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return out


def main():
    modules = set()
    files = []
    for root, dirs, names in os.walk(SRC):
        dirs[:] = [d for d in dirs if d != "tests"]
        for name in names:
            if name.endswith(".rs") and name != "tests.rs":
                rel = os.path.relpath(os.path.join(root, name), SRC)
                files.append(rel)
                modules.add(tuple(module_of(rel)))
    top = {}
    siblings = {}
    for rel in files:
        module = module_of(rel)
        if not module:
            continue
        is_mod = rel.endswith("mod.rs")
        with open(os.path.join(SRC, rel), encoding="utf-8") as f:
            text = without_tests(f.read())
        for path in paths(text):
            target = resolve(module, is_mod, path)
            if not target:
                continue
            if target[0] != module[0] and (target[0],) in modules:
                top.setdefault(module[0], set()).add(target[0])
            # Files of one folder: the folder is `parent`, the file is the
            # next segment (a child module of its own folder counts as it).
            parent = module[:-1] if not is_mod else module[:-1]
            if len(module) >= 2 and target[: len(parent)] == parent and len(target) > len(parent):
                sibling = target[len(parent)]
                mine = module[len(parent)]
                if sibling != mine and tuple(parent + [sibling]) in modules:
                    key = "/".join(parent) or "src"
                    siblings.setdefault(key, {}).setdefault(mine, set()).add(sibling)
    found = [("src", group) for group in cycles(top)]
    for folder, graph in sorted(siblings.items()):
        found += [(folder, group) for group in cycles(graph)]
    for folder, group in found:
        print(f"cycle in {folder}/: {' <-> '.join(group)}")
    if not found:
        print("no cycle between modules, nor between the files of a folder")
    return 1 if found and "--report" not in sys.argv else 0


if __name__ == "__main__":
    sys.exit(main())
