#!/usr/bin/env python3
"""The figures behind the point-by-point reading of the 8-D study against the stopping paper.

Reads the `summary.csv` of a merged `pbgi experiment --preset paper-8d` output (or of an interim
`pbgi merge --partial` one) and prints, for each statement the paper makes about its 8-D
Bayesian-regret study (section 4.1, Fig. 3; appendix C, Figs. 21-23), the numbers that decide
it. Standard library only, so it runs without the project's virtual environment:

    python3 lab/scripts/paper_8d_reading.py out/paper-8d/summary.csv
    python3 lab/scripts/paper_8d_reading.py --fig3-table out/paper-8d/summary.csv

The second form prints the Markdown table of Fig. 3's setting (λ = 0.01, every cost and all
four acquisitions, LCB and TS included, which comparison.md leaves out).

Conventions: regret is the cost-adjusted simple regret (lower is better); "± x" is two standard
errors; a paired difference `A − B` is taken run by run over the same samples (the summary's
`mean_minus_reference` columns, whose reference is our rule), so its 2SE is much smaller than
that of either mean.
"""
import csv
import sys
from collections import defaultdict

OURS_PREFIX = "PBGI/LogEIPC"
HINDSIGHT = "Hindsight"
HINDSIGHT_FIXED = "Hindsight-fixed"
ACQUISITIONS = ["pbgi", "logeipc", "lcb", "ts"]
LABEL = {"pbgi": "PBGI", "logeipc": "LogEIPC", "lcb": "LCB", "ts": "TS"}


def load(path):
    """Rows of summary.csv, keyed (cost, λ, acquisition) → {rule: row}."""
    table = defaultdict(dict)
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            rule = row["rule"]
            if rule.startswith(HINDSIGHT_FIXED):
                rule = HINDSIGHT_FIXED
            elif rule.startswith(OURS_PREFIX):
                rule = "ours"
            table[(row["cost"], row["lambda"], row["acquisition"])][rule] = row
    return table


def f(row, key):
    return float(row[key])


def pm(row, mean="mean_regret", spread="two_se_regret"):
    return f"{f(row, mean):.4g} ± {f(row, spread):.2g}"


def baselines(rules):
    return {name: row for name, row in rules.items()
            if name not in ("ours", HINDSIGHT, HINDSIGHT_FIXED)}


def main(path):
    table = load(path)
    costs = sorted({k[0] for k in table}, key=["uniform", "linear", "periodic@argmin"].index)
    lambdas = sorted({k[1] for k in table}, key=float, reverse=True)
    runs = {int(r["runs"]) for rules in table.values() for r in rules.values()}
    print(f"{path}: {sorted(runs)} runs per cell\n")

    print("1. Fig. 3 (λ = 0.01): our rule against the best other rule, per acquisition")
    print("   (rank among the rules; paired difference best-other − ours ± 2SE: > 0 means ours is lower)")
    for cost in costs:
        for acq in ACQUISITIONS:
            rules = table[(cost, "0.01", acq)]
            ours = rules["ours"]
            others = baselines(rules)
            best_name, best = min(others.items(), key=lambda kv: f(kv[1], "mean_regret"))
            print(f"   {cost:16} {LABEL[acq]:8} ours {pm(ours)} rank {ours['rank_in_acquisition']}, "
                  f"τ {f(ours, 'mean_stop'):.1f}, capped {f(ours, 'cap_share'):.0%}; "
                  f"best other {best_name} {pm(best)} τ {f(best, 'mean_stop'):.1f}; "
                  f"paired {pm(best, 'mean_minus_reference', 'two_se_minus_reference')}; "
                  f"ours − Hindsight {pm(ours, 'mean_excess_over_hindsight', 'two_se_excess')} "
                  f"(Hindsight {pm(rules[HINDSIGHT])} τ {f(rules[HINDSIGHT], 'mean_stop'):.1f})")
            # Every rule below ours beyond 2SE, not only the lowest: a column can hold several.
            beaten_by = [f"{name} {pm(row, 'mean_minus_reference', 'two_se_minus_reference')}"
                         for name, row in others.items()
                         if f(row, "mean_minus_reference") + f(row, "two_se_minus_reference") < 0]
            if beaten_by:
                print(f"   {'':16} {'':8} lower than ours beyond 2SE (paired): {'; '.join(beaten_by)}")
    print()

    print("2. §4.1: the acquisitions' Hindsight optima (the best stopping time per run), per cost and λ")
    for cost in costs:
        for lam in lambdas:
            cells = [f"{LABEL[a]} {pm(table[(cost, lam, a)][HINDSIGHT])}" for a in ACQUISITIONS]
            print(f"   {cost:16} λ={lam:6} " + "; ".join(cells))
    print()

    print("3. App. C: matched acquisition + our rule against Hindsight-fixed and Hindsight")
    for cost in costs:
        for lam in lambdas:
            for acq in ("pbgi", "logeipc"):
                rules = table[(cost, lam, acq)]
                ours, fixed, best = rules["ours"], rules[HINDSIGHT_FIXED], rules[HINDSIGHT]
                print(f"   {cost:16} λ={lam:6} {LABEL[acq]:8} ours {pm(ours)} (rank {ours['rank_in_acquisition']}) "
                      f"vs {fixed['rule']} {pm(fixed)} (paired fixed − ours "
                      f"{pm(fixed, 'mean_minus_reference', 'two_se_minus_reference')}) "
                      f"vs Hindsight {pm(best)}")
    print()

    print("4. App. C: our rule's rank per acquisition and λ (1 = lowest mean regret among the rules)")
    for cost in costs:
        for lam in lambdas:
            ranks = [f"{LABEL[a]} {table[(cost, lam, a)]['ours']['rank_in_acquisition']}" for a in ACQUISITIONS]
            print(f"   {cost:16} λ={lam:6} " + ", ".join(ranks))
    print()

    print("5. Share of runs that reach the cap (the rule never fired), over all costs and λ:")
    print("   all acquisitions / PBGI and LogEIPC / LCB / TS")
    groups = [ACQUISITIONS, ["pbgi", "logeipc"], ["lcb"], ["ts"]]
    shares = defaultdict(lambda: [[] for _ in groups])
    for (cost, lam, acq), rules in table.items():
        named = dict(baselines(rules), ours=rules["ours"])
        for name, row in named.items():
            for g, members in enumerate(groups):
                if acq in members:
                    shares[name][g].append(f(row, "cap_share"))
    for name, per_group in sorted(shares.items(), key=lambda kv: sum(kv[1][0])):
        cells = " / ".join(f"{sum(v) / len(v):.1%}" for v in per_group)
        print(f"   {name:14} {cells}")


def fig3_table(path, lam="0.01"):
    """Per cost, a Markdown table: rows the rules, then Hindsight-fixed and Hindsight; columns
    the four acquisitions at λ. A cell: mean ± 2SE [rank among the rules], mean τ, and the
    share of runs capped when above 0; the lowest rule of each column in bold."""
    table = load(path)
    costs = sorted({k[0] for k in table}, key=["uniform", "linear", "periodic@argmin"].index)
    first = table[(costs[0], lam, ACQUISITIONS[0])]
    names = ["ours"] + [n for n in first if n not in ("ours", HINDSIGHT, HINDSIGHT_FIXED)]
    names += [HINDSIGHT_FIXED, HINDSIGHT]
    label = {"ours": first["ours"]["rule"], HINDSIGHT: "Hindsight (lower bound)",
             HINDSIGHT_FIXED: "Hindsight-fixed (best fixed t)"}
    for cost in costs:
        print(f"\n{cost} cost, λ = {lam}:\n")
        print("| rule | " + " | ".join(LABEL[a] for a in ACQUISITIONS) + " |")
        print("|---|" + "---|" * len(ACQUISITIONS))
        for name in names:
            cells = []
            for a in ACQUISITIONS:
                rules = table[(cost, lam, a)]
                row = rules[name]
                best = min(f(r, "mean_regret") for n, r in rules.items()
                           if n not in (HINDSIGHT, HINDSIGHT_FIXED))
                text = pm(row).replace(" ± ", "±")
                oracle = name in (HINDSIGHT, HINDSIGHT_FIXED)
                if not oracle and f(row, "mean_regret") == best:
                    text = f"**{text}**"
                if not oracle:
                    text += f" [{row['rank_in_acquisition']}]"
                text += f" τ{f(row, 'mean_stop'):.0f}"
                if f(row, "cap_share") > 0:
                    text += f" {f(row, 'cap_share'):.0%}"
                cells.append(text)
            print(f"| {label.get(name, name)} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--fig3-table"] and len(args) == 2:
        fig3_table(args[1])
    elif len(args) == 1 and not args[0].startswith("-"):
        main(args[0])
    else:
        sys.exit("usage: paper_8d_reading.py [--fig3-table] SUMMARY_CSV (the summary.csv of a "
                 "merged paper-8d output)")
