"""The timing the side-by-side PyTorch scripts share: the best of three rounds of a step."""
import time


def best(step, seconds, warmup=3):
    """Runs step warmup times, then three rounds of at least seconds/3 (and two steps) each;
    returns the best round's wall and process CPU seconds per step."""
    for _ in range(warmup):
        step()
    best_wall, best_cpu = float("inf"), float("inf")
    for _ in range(3):
        n, t0, c0 = 0, time.perf_counter(), time.process_time()
        while time.perf_counter() - t0 < seconds / 3 or n < 2:
            step()
            n += 1
        best_wall = min(best_wall, (time.perf_counter() - t0) / n)
        best_cpu = min(best_cpu, (time.process_time() - c0) / n)
    return best_wall, best_cpu
