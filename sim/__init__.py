"""The simulated Usenet: a corpus generator with ground truth (sim.generate),
article bodies for phase 2 (sim.bodies) and an NNTP server that serves any
corpus in the CORPUS.md layout (sim.server)."""
