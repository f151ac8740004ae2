"""While a table is played, what survives is frozen out of the collector's full passes (so
they stay short), young garbage is still collected, and leaving gives everything back."""

from __future__ import annotations

import asyncio
import gc

from rattus_net.net.quietgc import QuietCollector


class Cycle:
    def __init__(self) -> None:
        self.me = self


def test_survivors_are_frozen_young_garbage_goes_and_the_last_stop_unfreezes() -> None:
    async def main() -> None:
        assert gc.get_freeze_count() == 0
        first, second = QuietCollector(0.01), QuietCollector(0.01)
        first.start()
        second.start()
        frozen = gc.get_freeze_count()
        assert frozen > 0  # everything alive at the start
        kept = [Cycle() for _ in range(1000)]  # survivors: frozen at the next round
        for _ in range(1000):
            Cycle()  # garbage (cycles): a young collection takes them before the freeze
        await asyncio.sleep(0.1)
        grown = gc.get_freeze_count()
        assert frozen + 1000 <= grown < frozen + 1900
        first.stop()
        assert gc.get_freeze_count() >= grown  # the other table still plays
        second.stop()
        assert gc.get_freeze_count() == 0 and not second.running
        assert len(kept) == 1000

    asyncio.run(main())
