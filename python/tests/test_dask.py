"""A chain made here, sent to Dask workers (two processes of a LocalCluster): each worker gets
a pickled copy, and the outputs over 20 signals equal the serial ones sample for sample."""
import distributed  # installed by Scripts/test, for the tests alone
import numpy as np

import detent
from conftest import OVERDRIVE, noise


def test_a_pickled_chain_maps_over_signals_on_dask_workers():
    chain = detent.Chain([OVERDRIVE, "builtin"])
    chain["overdrive.drive"] = 0.55
    chain["builtin.cutoff"] = "3k"
    signals = [noise(frames=12_000, seed=100 + i) for i in range(20)]
    serial = [chain.process(x) for x in signals]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        remote = client.scatter(chain, broadcast=True)
        futures = client.map(lambda c, x: c.process(x), [remote] * len(signals), signals, pure=False)
        results = client.gather(futures)
    assert all(np.array_equal(a, b) for a, b in zip(results, serial))
