"""Network play: a 5-peer game over loopback TCP in separate processes vs the same seeded game
over the in-memory network in one process; and how fast a new table shows in `rattus tables`.

Run (as root for the discovery part, which uses private network namespaces):
    python benchmarks/network.py [--players 5] [--seed 1] [--repeats 3] [--no-discovery]

Targets (issue "Play across the LAN"): loopback / in-memory wall-time ratio <= 1.5; a new
table appears in `rattus tables` in under 2 s.

Bad links (issue "Network play that holds", root: network namespaces): the same seeded
3-peer game, each peer in a namespace of its own, every mesh link through a userspace relay
in a fourth namespace (`tests/net/relay.py`: the kernel has no sch_netem), clean and with
100 ms delay each way, 10% loss (a lost chunk is held a retransmission timeout), 1% loss +
50 ms jitter, and a 20 s outage of every link; wall time of each against the clean run. The
relay's own statistics are checked, so a figure is never printed for a fault that was not
applied. `--faults-only` runs just that part.

The loopback game is *the same game* as `rattus selfplay --secure` of that seed: the benchmark
writes each seat's journal with the seeded setup (seeded secrets, roster on free loopback ports)
and starts every seat with `rattus resume GAME_ID` in its own process and data directory, so
both start from the same secrets, card order and bot seeds, and play the same game (the line
says so if they ever part ways; the ratio per signed message is printed too). The process
figure includes Python start-up of each peer.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from protocol.record import decode_record
from protocol.seeded import seeded_params
from rattus_net.games.cartus.config import BuildingSelection, GameConfig
from rattus_net.kit.registry import get_game
from rattus_net.net.node import PeerNode
from rattus_net.net.persist import seat_dir
from rattus_net.net.seats import Setup
from rattus_net.paths import RECORD_FILE
from rattus_net.selfplay import play_secure_game

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def agreed_record(game_id: str, root: Path, procs: list[Any], outs: list[tuple[str, str]]) -> bytes:
    """The record the peers (``procs``, each with its data folder ``root/<seat>``, their
    outputs ``outs``) wrote, which must be one and the same; a peer that failed stops the
    benchmark with what it said."""
    for p, (out, err) in zip(procs, outs, strict=True):
        if p.returncode != 0:
            raise SystemExit(f"a peer failed: {out[-300:]} {err[-800:]}")
    records = {(seat_dir(game_id, s, root / str(s)) / RECORD_FILE).read_bytes()
               for s in range(len(procs))}  # fmt: skip
    if len(records) != 1:
        raise SystemExit("the peers' records differ")
    return records.pop()


def loopback_game(players: int, seed: int) -> tuple[float, bytes]:
    config = GameConfig(
        players=tuple(f"random-{s + 1}" for s in range(players)),
        buildings=BuildingSelection.random_cards(),
    )
    params, secrets = seeded_params(config, seed, "cartus")
    addresses = tuple(("127.0.0.1", free_port()) for _ in range(players))
    root = Path(tempfile.mkdtemp(prefix="rattus-bench-"))
    game_id = ""
    for s in range(players):
        # Each seat's bot is seeded as in `rattus selfplay --secure` (see rattus_net/selfplay.py).
        bot_seed = seed * 7919 + s
        setup = Setup(params, s, secrets[s]._master, addresses, "bench", "random", bot_seed)
        game_id = setup.game_id
        node = PeerNode.create(setup, root / str(s))
        node.journal.close()
    start = time.perf_counter()
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "rattus_net", "resume", game_id],
            env={"RATTUS_DATA_DIR": str(root / str(s)), "PATH": "/usr/bin:/bin"},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for s in range(players)
    ]
    outs = [p.communicate(timeout=300) for p in procs]
    elapsed = time.perf_counter() - start
    return elapsed, agreed_record(game_id, root, procs, outs)


FAULTS: list[tuple[str, list[str], dict[str, float]]] = [
    ("clean", [], {}),
    ("100 ms delay", ["--delay", "0.1"], {"min_delay": 0.1}),
    ("10% loss", ["--loss", "0.1"], {"lost": 1}),
    ("1% loss + 50 ms jitter", ["--loss", "0.01", "--jitter", "0.05"], {"max_delay": 0.02}),
    ("20 s outage", ["--outage-at", "2.5", "--outage", "20"], {"held_by_outage": 1}),
]


def impaired_game(lab: Any, players: int, seed: int, fault: list[str]) -> tuple[float, Any]:
    """One seeded game, each peer in its namespace, every link through the relay namespace."""
    config = GameConfig(
        players=tuple(f"random-{s + 1}" for s in range(players)),
        buildings=BuildingSelection.random_cards(),
    )
    params, secrets = seeded_params(config, seed, "cartus")
    relay_ip = lab.addr(players)
    ports = [42000 + s for s in range(players)]
    addresses = tuple((relay_ip, ports[s]) for s in range(players))
    root = Path(tempfile.mkdtemp(prefix="rattus-bench-faults-"))
    game_id = ""
    for s in range(players):
        setup = Setup(params, s, secrets[s]._master, addresses, "bench", "random", seed * 7919 + s)
        game_id = setup.game_id
        PeerNode.create(setup, root / str(s)).journal.close()
    routes = []
    for s in range(players):
        routes += ["--route", f"{relay_ip}:{ports[s]}={lab.addr(s)}:{ports[s]}"]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    relay = lab.popen(players, [sys.executable, "-m", "tests.net.relay", *routes, *fault,
                                "--seed", str(seed)], env=env, cwd=ROOT)  # fmt: skip
    if relay.stdout.readline().strip() != "ready":
        raise SystemExit(f"relay failed: {relay.communicate()[1]}")
    start = time.perf_counter()
    procs = [
        lab.popen(
            s,
            [sys.executable, "-m", "rattus_net", "resume", game_id],
            env={**env, "RATTUS_DATA_DIR": str(root / str(s))},
        )
        for s in range(players)
    ]
    outs = [p.communicate(timeout=600) for p in procs]
    elapsed = time.perf_counter() - start
    relay.send_signal(15)
    stats = json.loads(relay.communicate(timeout=30)[0].strip().splitlines()[-1])
    agreed_record(game_id, root, procs, outs)  # (the peers agree: the figures are a game's)
    return elapsed, stats


def bad_links(players: int, seed: int, repeats: int) -> None:
    from tests.net.netns import NetnsLab, netns_available

    reason = netns_available()
    if reason is not None:
        print(f"bad links: skipped ({reason})")
        return
    with NetnsLab(players + 1, "f") as lab:
        clean = 0.0
        for name, fault, expect in FAULTS:
            times = []
            for r in range(repeats):
                elapsed, stats = impaired_game(lab, players, seed + r, fault)
                for key, low in expect.items():  # the fault was applied, or no figure
                    if not stats[key] >= low:
                        raise SystemExit(f"{name}: the relay did not apply it: {stats}")
                times.append(elapsed)
            median = statistics.median(times)
            clean = clean or median
            print(f"{players}-peer game in namespaces, {name:<24} {median:6.1f} s "
                  f"(x{median / clean:4.2f} of clean; runs: "
                  f"{', '.join(f'{t:.1f}' for t in times)}; relay: {stats['chunks']} chunks, "
                  f"{stats['lost']} lost, {stats['held_by_outage']} held by the outage)",
                  flush=True)  # fmt: skip


def memory_game(players: int, seed: int) -> tuple[float, bytes]:
    start = time.perf_counter()
    played = play_secure_game(get_game("cartus"), players, seed, ["random"], {})
    return time.perf_counter() - start, played.record


def discovery_latency(repeats: int) -> list[tuple[float, float]]:
    """(from host launch, from the host's 'open' line) to the browser seeing the table."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.net.netns import NetnsLab, netns_available

    reason = netns_available()
    if reason is not None:
        print(f"discovery: skipped ({reason})")
        return []
    watcher = (
        "import asyncio, sys, time\n"
        "from rattus_net.net.discovery import TableBrowser, new_zeroconf\n"
        "async def main():\n"
        "    zc = new_zeroconf(); b = TableBrowser(zc); await b.start()\n"
        "    print('ready', flush=True)\n"
        "    t = await b.wait_for(lambda a: a.name == sys.argv[1], 30)\n"
        "    print('seen', time.time(), flush=True)\n"
        "    await b.close(); await zc.async_close()\n"
        "asyncio.run(main())\n"
    )
    results = []
    with NetnsLab(2, "b") as lab:
        for r in range(repeats):
            name = f"Bench{r}"
            w = lab.popen(1, [sys.executable, "-c", watcher, name])
            assert w.stdout is not None
            assert w.stdout.readline().strip() == "ready"
            time.sleep(1.0)  # the browser's first queries are over: a steady `rattus tables`
            launched = time.time()
            h = lab.popen(
                0,
                [
                    sys.executable,
                    "-m",
                    "rattus_net",
                    "host",
                    "--name",
                    name,
                    "--players",
                    "2",
                    "--bot",
                    "random",
                ],
            )
            assert h.stdout is not None
            line = h.stdout.readline()
            opened = time.time()
            if "open on port" not in line:
                raise SystemExit(f"host failed: {line}")
            seen_line = w.stdout.readline().split()
            seen = float(seen_line[1])
            results.append((seen - launched, seen - opened))
            h.kill()
            w.kill()
            h.wait()
            w.wait()
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-discovery", action="store_true")
    ap.add_argument("--faults-only", action="store_true", help="only the bad-links part")
    ap.add_argument("--fault-players", type=int, default=3)
    args = ap.parse_args()
    if args.faults_only:
        bad_links(args.fault_players, args.seed, args.repeats)
        return
    net_times, mem_times = [], []
    for r in range(args.repeats):
        seed = args.seed + r
        mem, mem_record = memory_game(args.players, seed)
        net, net_record = loopback_game(args.players, seed)
        same = "same game" if net_record == mem_record else "the games parted ways"
        nm, nn = len(decode_record(mem_record)[1]), len(decode_record(net_record)[1])
        print(f"seed {seed}: in-memory {mem:6.2f} s ({nm} msgs)   loopback processes "
              f"{net:6.2f} s ({nn} msgs)   ratio {net / mem:4.2f}, per message "
              f"{(net / nn) / (mem / nm):4.2f}   ({same})")  # fmt: skip
        net_times.append(net / nn)
        mem_times.append(mem / nm)
    ratio = statistics.median(n / m for n, m in zip(net_times, mem_times, strict=True))
    print(f"{args.players}-peer game, median ratio loopback/in-memory per signed message: "
          f"{ratio:.2f} (target <= 1.5)")  # fmt: skip
    if not args.no_discovery:
        lat = discovery_latency(args.repeats)
        if lat:
            launch = statistics.median(a for a, _ in lat)
            opened = statistics.median(b for _, b in lat)
            print(f"new table visible to a running browser: median {launch:.2f} s after the host "
                  "process is launched, Python start-up included (target < 2 s)")  # fmt: skip
            del opened
    bad_links(args.fault_players, args.seed, args.repeats)


if __name__ == "__main__":
    main()
