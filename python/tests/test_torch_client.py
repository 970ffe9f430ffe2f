"""The PyTorch client test (issue 18): a small two-layer ReLU net trained in float64 by plain GD on the
Figure-2 data of [BF2025, App. B.1] from a small initialization; its state_dict saved to .npy every step;
flowcert certifies the exact GD iterates from the same initial weights with the same step, and proves that
PyTorch's iterates and losses are within TOL of them at every step. A perturbed weight fails.

Why a tolerance and not containment: the exact GD iterate is enclosed to a few ulps (128-bit run), and
PyTorch's float64 iterate carries its own rounding error of the same size; from step 1 on it is in general
not inside an enclosure of the exact one. What is proven is |theta_torch(t) - theta_exact(t)| <= TOL for
every t (the bound is rigorous: theta_exact(t) lies in the certified box).
"""
import time

import numpy as np
import pytest
import torch

import flowcert
from flowcert import two_layer

TOL = 1e-12       # proven agreement of PyTorch with exact GD, weights and loss
STEPS = 300
LR = 0.05
M = 20


def train(tmp_path):
    """Plain float64 GD (torch.optim.SGD, no momentum) on MSELoss; state_dict -> .npy at every step."""
    torch.manual_seed(18)
    x = torch.tensor([[-0.75], [-0.5], [0.125]], dtype=torch.float64)  # [BF2025, App. B.1]
    y = torch.tensor([1.1, 0.1, 0.8], dtype=torch.float64)
    net = torch.nn.Sequential(torch.nn.Linear(1, M), torch.nn.ReLU(), torch.nn.Linear(M, 1, bias=False)).double()
    with torch.no_grad():  # small initialization, scale lambda / sqrt(m) with lambda = 0.1
        for p in net.parameters():
            p.copy_(torch.randn_like(p) * 0.1 / M ** 0.5)
    opt = torch.optim.SGD(net.parameters(), lr=LR)
    history = {k: [] for k in net.state_dict()}
    losses = []
    for t in range(STEPS + 1):
        for k, v in net.state_dict().items():
            history[k].append(v.detach().clone().numpy())
        loss = torch.nn.functional.mse_loss(net(x).squeeze(1), y)
        losses.append(loss.item())
        if t < STEPS:
            opt.zero_grad()
            loss.backward()
            opt.step()
    files = {}
    for k, v in history.items():  # the export: one .npy per state_dict entry, all steps stacked
        files[k] = tmp_path / f"{k}.npy"
        np.save(files[k], np.stack(v))
    np.save(tmp_path / "loss.npy", np.array(losses))
    return x.numpy(), y.numpy(), files, tmp_path / "loss.npy"


def load_trajectory(files):
    """(a_t, W_t) per step from the saved state_dict: W = [hidden weight | hidden bias] (flowcert's bias)."""
    W1 = np.load(files["0.weight"])            # steps x m x 1
    b1 = np.load(files["0.bias"])              # steps x m
    a = np.load(files["2.weight"])[:, 0, :]    # steps x m
    W = np.concatenate([W1, b1[:, :, None]], axis=2)
    return a, W


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    t0 = time.time()
    x, y, files, loss_file = train(tmp_path_factory.mktemp("torch"))
    a, W = load_trajectory(files)
    t1 = time.time()
    g = two_layer.gd(x, y, a[0], W[0], step=LR, iterations=STEPS, bias=True,
                     risk_weight=two_layer.mse_risk_weight(len(y)), precision=128)
    t2 = time.time()
    print(f"\ntorch training {t1 - t0:.2f} s, flowcert GD ({STEPS} steps, 128 bits) {t2 - t1:.2f} s")
    return g, a, W, np.load(loss_file)


def test_pytorch_iterates_and_losses_are_within_tol_of_certified_exact_gd(run):
    g, a, W, losses = run
    assert g.ok, g.reason
    assert g.iterations_done == STEPS and g.undecided_pair_steps == 0
    assert g.max_width.max() < 1e-14  # the enclosures are tight: the bounds below mean something
    d = [g.distance_bound(t, a[t], W[t]) for t in range(STEPS + 1)]
    dl = [g.loss_distance_bound(t, losses[t]) for t in range(STEPS + 1)]
    print(f"max |theta_torch - theta_exact| <= {max(d):.3g}, max |loss_torch - loss_exact| <= {max(dl):.3g}")
    assert max(d) <= TOL and max(dl) <= TOL
    assert losses[-1] < 0.5 * losses[0]  # it trained (not a vacuous instance)


def test_a_perturbed_weight_fails(run):
    g, a, W, losses = run
    W_bad = W[-1].copy()
    W_bad[3, 0] += 1e-9   # one weight of the reached state_dict, off by 1e-9
    assert g.distance_bound(STEPS, a[-1], W_bad) > TOL
    assert not g.contains(STEPS, a[-1], W_bad)
    assert g.loss_distance_bound(STEPS, losses[-1] + 1e-9) > TOL


def test_weights_from_torch_maps_the_module():
    net = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1, bias=False)).double()
    a, W, bias = two_layer.weights_from_torch(net)
    assert bias and W.shape == (3, 3) and a.shape == (3,)
    assert np.array_equal(W[:, 2], net[0].bias.detach().numpy())
    with torch.no_grad():
        net[0].bias.add_(1.0)
    assert not np.array_equal(W[:, 2], net[0].bias.detach().numpy())  # a copy, not a view
    with pytest.raises(flowcert.BadInput):
        two_layer.weights_from_torch(torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Linear(3, 1)))
