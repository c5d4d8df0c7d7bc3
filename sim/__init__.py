"""The simulated Usenet: a corpus generator with ground truth (sim.generate),
article bodies for phase 2 (sim.bodies), synthetic overview lines
(sim.synthetic) and an NNTP server that serves any corpus in the corpus layout
of voyager.corpus (sim.server)."""
