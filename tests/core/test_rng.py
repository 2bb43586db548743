import subprocess
import sys

import pytest

from tablelight.core.rng import Rng


def test_same_seed_same_sequence_and_different_seeds_differ():
    a, b, c = Rng(7), Rng(7), Rng(8)
    seq_a = [a.next64() for _ in range(5)]
    assert seq_a == [b.next64() for _ in range(5)]
    assert seq_a != [c.next64() for _ in range(5)]


def test_sequence_is_fixed_across_processes_and_hash_seeds():
    code = "from tablelight.core.rng import Rng; r = Rng(42); print([r.below(1000) for _ in range(8)])"
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True,
            env={"PYTHONHASHSEED": seed, "PATH": ""},
        ).stdout
        for seed in ("0", "1", "12345")
    }
    r = Rng(42)
    assert outputs == {f"{[r.below(1000) for _ in range(8)]}\n"}


def test_below_is_in_range_and_roughly_uniform():
    rng = Rng(1)
    counts = [0] * 6
    for _ in range(60000):
        counts[rng.below(6)] += 1
    assert all(9500 < c < 10500 for c in counts)


def test_below_rejects_empty_range_and_state_resumes():
    with pytest.raises(ValueError):
        Rng(1).below(0)
    a = Rng(3)
    a.next64()
    b = Rng(state=a.state)
    assert [a.below(100) for _ in range(10)] == [b.below(100) for _ in range(10)]


def test_shuffle_is_a_permutation():
    items = list(range(20))
    Rng(5).shuffle(items)
    assert sorted(items) == list(range(20)) and items != list(range(20))



def _splitmix64(state: int, count: int) -> list[int]:
    """The generator's outputs worked out one at a time, as the algorithm's paper gives them."""
    mask, outputs = (1 << 64) - 1, []
    for _ in range(count):
        state = z = (state + 0x9E3779B97F4A7C15) & mask
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        outputs.append(z ^ (z >> 31))
    return outputs


def test_outputs_worked_out_in_batches_are_splitmix64_one_at_a_time():
    # 300 outputs cross every batch size's end; the state read between them goes on from there.
    for start in (0, 1, 0x9E3779B97F4A7C15, (1 << 64) - 1, 123456789):
        rng = Rng(state=start)
        assert [rng.next64() for _ in range(300)] == _splitmix64(start, 300)
        assert rng.state == (start + 300 * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)
    # below() rejects the top of the range: n near 2**64 makes that common, and each rejection uses one output.
    rng, n = Rng(state=5), (1 << 63) + 1
    expected = [x % n for x in _splitmix64(5, 400) if x < (1 << 64) - (1 << 64) % n]
    assert [rng.below(n) for _ in range(len(expected))] == expected


def test_copies_and_pickles_go_on_with_the_same_outputs():
    import copy
    import pickle

    rng = Rng(9)
    for _ in range(7):  # part way through a batch
        rng.below(6)
    copies = [copy.copy(rng), copy.deepcopy(rng), pickle.loads(pickle.dumps(rng)), Rng(state=rng.state)]
    expected = [rng.below(1000) for _ in range(100)]
    for other in copies:
        assert [other.below(1000) for _ in range(100)] == expected
