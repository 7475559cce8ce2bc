"""The reproduction report: for every number each paper prints, ours beside it with its 95 % CI
and a verdict, the paper's figures redrawn, and the run's metadata; as HTML (index.html plus one
page per paper, figures next to them) and as Markdown tables. Built by
`python3 -m reproduce.report` (scripts/reproduce.sh runs it) or `faultsweep-analysis report`."""
