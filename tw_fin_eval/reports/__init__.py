"""Reports over scored items: `summary` (headline units, the summary table, summary.csv), `results_doc`
(results.json), `markdown` (report.md), `html` (report.html and compare.html pages), `outputs` (writes them all,
atomically), `compare` (paired comparison of scored runs) and `stats` (bootstrap and intervals)."""
