"""While Numba compiles, the cyclic garbage collector is eased (simcore.numba_cache.eased_collector):
what the process held is frozen out of its sight and it runs less often, then the process's own
thresholds come back. Checked on a real compile inside the runner's compile notice."""

from __future__ import annotations

import gc

import pytest

from simcore.numba_cache import COMPILE_GC_THRESHOLDS, eased_collector


@pytest.fixture
def own_collector():
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*before)
    gc.enable()


def test_a_real_compile_under_the_notice_runs_eased_and_the_thresholds_come_back(own_collector):
    import numba
    from numba.core import event

    from simcore.runner import compile_notice

    seen = []

    class _During(event.Listener):
        def on_start(self, ev):
            pass

        def on_end(self, ev):
            seen.append((gc.get_threshold(), gc.get_freeze_count()))

    @numba.njit(cache=False)
    def plus_one(x):            # a new function object: compiled here, never cached
        return x + 1

    with event.install_listener("numba:compile", _During()):
        with compile_notice("compiling", None) as notice:
            assert plus_one(41) == 42
    assert notice.compiled
    assert seen and all(t == COMPILE_GC_THRESHOLDS for t, _ in seen), seen
    assert all(f > 0 for _, f in seen), seen              # what the process held was frozen
    assert gc.get_threshold() == (700, 10, 10)            # the process's own, back


def test_nothing_is_eased_when_nothing_compiles(own_collector):
    from simcore.runner import compile_notice

    with compile_notice("compiling", None) as notice:
        pass
    assert not notice.compiled and gc.get_threshold() == (700, 10, 10)


def test_a_process_without_the_collector_is_left_so(own_collector):
    gc.disable()
    c = eased_collector()
    c.begin()
    assert gc.get_threshold() == (700, 10, 10) and not gc.isenabled()
    c.end()
    assert gc.get_threshold() == (700, 10, 10) and not gc.isenabled()


def test_begin_twice_eases_once_and_end_restores_the_first_thresholds(own_collector):
    c = eased_collector()
    c.begin()
    gc.set_threshold(5, 5, 5)              # (something else changes them meanwhile)
    c.begin()
    assert gc.get_threshold() == (5, 5, 5)
    c.end()
    assert gc.get_threshold() == (700, 10, 10)
