"""optik from Python: provably optimal k-anonymous and personalised k_i-anonymous releases.

Every function takes its table as a pandas ``DataFrame`` or the path of a CSV file, and the
keyword arguments of the matching ``optik`` subcommand, spelled in snake_case
(``--k-column`` is ``k_column``). Bad input raises ``ValueError`` with the command line's
one-line message (naming settings by these keyword names); an internal failure raises
``RuntimeError``. The work runs without the GIL, and Ctrl-C interrupts a call with
``KeyboardInterrupt``.

    >>> import optik
    >>> res = optik.anonymise("instances/clinical_trial.csv",
    ...                       schema="instances/clinical_trial.toml", k_column="k")
    >>> res.status, res.objective
    ('optimal', 52.969)
"""

from __future__ import annotations

import io
import json
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import pandas as pd

from . import _optik

__version__: str = _optik.__version__

__all__ = ["anonymise", "check", "assess", "export", "Anonymisation", "__version__"]

#: A table: a DataFrame, or the path of a CSV file.
Table = Union[pd.DataFrame, str, "os.PathLike[str]"]

#: How messages name a DataFrame given as a table (its line N is the frame's row N - 2).
DATAFRAME_NAME = "DataFrame"


def _table(data: Any, name: str = DATAFRAME_NAME) -> Tuple[Union[bytes, str], str]:
    """The table as the extension takes it: CSV bytes and a name, or a file path."""
    if isinstance(data, pd.DataFrame):
        return data.to_csv(index=False).encode("utf-8"), name
    if isinstance(data, (str, os.PathLike)):
        path = os.fspath(data)
        return path, path
    raise TypeError(
        f"expected a pandas DataFrame or the path of a CSV file, got {type(data).__name__}"
    )


def _qi(qi: Union[None, str, Sequence[str]]) -> Optional[str]:
    """A quasi-identifier list: ``"a,b"`` or ``["a", "b"]``."""
    if qi is None or isinstance(qi, str):
        return qi
    return ",".join(qi)


def _path(p: Union[None, str, "os.PathLike[str]"]) -> Optional[str]:
    return None if p is None else os.fspath(p)


def _original(original: Optional[Table]) -> Union[None, bytes, str]:
    if original is None:
        return None
    return _table(original, "original")[0]


class Anonymisation:
    """A verified anonymisation: the release, its report and each record's class.

    Attributes:
        release: the released table, one row per record in the input's row order (rows
            dropped with ``drop_missing`` are absent), every cell as released text
            (``[30-39]``, a hierarchy label, or the value itself); indexed like the input
            DataFrame, or by 0-based data row for a CSV file.
        release_csv: the release as the CSV text ``optik anonymise --out`` writes.
        report: the report, with exactly the keys of ``optik anonymise --report``'s JSON.
        classes: each released row's class id (0-based), indexed like ``release``.
    """

    def __init__(self, run: Any, index: Optional[pd.Index]) -> None:
        self._run = run
        self.release_csv: bytes = run.release_csv
        self.report: Dict[str, Any] = json.loads(run.report_json)
        rows: List[int] = run.rows
        self.release: pd.DataFrame = pd.read_csv(
            io.BytesIO(self.release_csv),
            sep=self.report["input"]["delimiter"],
            dtype=str,
            keep_default_na=False,
        )
        labels = index[rows] if index is not None else pd.Index(rows)
        self.release.index = labels
        self.classes: pd.Series = pd.Series(run.classes, index=labels, name="class")

    @property
    def status(self) -> str:
        """``heuristic``, or the exact engine's ``optimal`` (proven) / ``feasible``."""
        return self.report["status"]

    @property
    def objective(self) -> float:
        """The criterion's value, in distance units."""
        return self.report["objective"]

    @property
    def lower_bound(self) -> Optional[float]:
        """The exact engine's proven bound (``None`` for heuristics)."""
        return self.report["lower_bound"]

    @property
    def heuristics(self) -> List[Dict[str, Any]]:
        """Each heuristic's objective and ratio to this release (``report["heuristics"]``)."""
        return self.report["heuristics"]

    def to_svg(self, plot_axes: Optional[str] = None) -> str:
        """The partition picture (SVG), as ``--plot`` draws it; ``plot_axes="a,b"`` places
        the records by two quasi-identifiers (default: a 2-D MDS of the distances)."""
        return self._run.svg(plot_axes)

    def to_html(self, plot_axes: Optional[str] = None) -> str:
        """The self-contained HTML report page, as ``--html`` writes it."""
        return self._run.html(plot_axes)

    def __repr__(self) -> str:
        r = self.report
        return (
            f"<Anonymisation {r['method']} ({r['status']}): {r['n']} records in "
            f"{r['classes']} classes, {r['criterion']} = {r['objective']:.4f}>"
        )


def anonymise(
    data: Table,
    *,
    qi: Union[None, str, Sequence[str]] = None,
    schema: Union[None, str, "os.PathLike[str]"] = None,
    k: Optional[int] = None,
    k_column: Optional[str] = None,
    k_dist: Optional[str] = None,
    k_preset: Optional[str] = None,
    k_levels: Optional[str] = None,
    seed: int = 0,
    k_assign: Optional[str] = None,
    k_axes: Optional[str] = None,
    k_axis_order: Sequence[str] = (),
    method: str = "optimal",
    criterion: str = "dbil",
    engine: str = "auto",
    time_limit: Union[None, float, str] = None,
    search: str = "autonomous",
    no_size_cap: bool = False,
    no_lp_bound: bool = False,
    no_lp_primal: bool = False,
    node_lp: bool = False,
    scale: float = 1000.0,
    form: str = "ki",
    cost: str = "personalised",
    l_diversity: Optional[int] = None,
    sensitive: Optional[str] = None,
    links: Union[None, str, "os.PathLike[str]"] = None,
    link_key: Optional[str] = None,
    max_class_size: Optional[int] = None,
    class_column: Optional[str] = None,
    compare: bool = False,
    release: str = "generalised",
    delimiter: Optional[str] = None,
    drop_missing: bool = False,
    quiet: bool = True,
) -> Anonymisation:
    """Anonymises a table, as ``optik anonymise`` does, writing nothing.

    The table is partitioned (``method``: ``mdav``, ``kmember``, ``mondrian`` or ``optimal``),
    generalised, re-read and checked k_i-anonymous independently; the report compares the
    release with every heuristic (for a heuristic ``method`` only with ``compare=True``).

    Args:
        data: a DataFrame or the path of a CSV file.
        qi: the quasi-identifiers (``"a,b"`` or a list; kinds inferred), or
        schema: a TOML schema file (exactly one of the two).
        k, k_column, k_dist, k_preset: the k_i source (exactly one): uniform k, a column
            (not released), a distribution ``"3:0.8,5:0.2"`` drawn with ``seed``, or a preset
            (``general``, ``personal``, ``professional``, ``sexual-political``) over
            ``k_levels`` (``"3,5,7"``); ``k_assign="correlated"`` with ``k_axes`` and
            ``k_axis_order`` assigns drawn k_i by the data.
        seed: seed of the k_i draws and of the randomised methods.
        method, criterion (``dbil``, ``diameter``, ``split``, ``wcsd``), engine (``auto``,
            ``cp``, ``colgen``, ``mip``, ``lns``), time_limit (seconds or ``"60s"``), search,
            no_size_cap, no_lp_bound, no_lp_primal, node_lp, scale: as the command line's
            flags.
        form (``ki``, ``k``), cost (``original``, ``corrected``, ``personalised``): heuristics.
        l_diversity + sensitive, links (+ link_key), max_class_size: class constraints of
            ``method="optimal"``.
        class_column: add a column holding each record's class id to the release.
        compare: heuristic methods: compare with the other two heuristics in the report.
        release: ``"generalised"`` (intervals and hierarchy ancestors) or ``"centroid"``
            (numeric quasi-identifiers replaced by the class mean, as sdcMicro's
            ``microaggregation()`` returns them).
        delimiter: of a CSV file (detected by default); drop_missing: drop rows with a
            missing quasi-identifier instead of failing.
        quiet: when False, an exact run logs every improving solution on standard error.

    Returns:
        An :class:`Anonymisation`.

    Raises:
        ValueError: bad input (the command line's one-line message).
        RuntimeError: an internal failure.
        KeyboardInterrupt: Ctrl-C during the run.
    """
    source, name = _table(data)
    run = _optik.anonymise(
        source,
        name,
        qi=_qi(qi),
        schema=_path(schema),
        k=k,
        k_column=k_column,
        k_dist=k_dist,
        k_preset=k_preset,
        k_levels=k_levels,
        seed=seed,
        k_assign=k_assign,
        k_axes=k_axes,
        k_axis_order=list(k_axis_order),
        method=method,
        criterion=criterion,
        engine=engine,
        time_limit=time_limit,
        search=search,
        no_size_cap=no_size_cap,
        no_lp_bound=no_lp_bound,
        no_lp_primal=no_lp_primal,
        node_lp=node_lp,
        scale=scale,
        form=form,
        cost=cost,
        l_diversity=l_diversity,
        sensitive=sensitive,
        links=_path(links),
        link_key=link_key,
        max_class_size=max_class_size,
        class_column=class_column,
        compare=compare,
        release=release,
        delimiter=delimiter,
        drop_missing=drop_missing,
        quiet=quiet,
    )
    return Anonymisation(run, data.index if isinstance(data, pd.DataFrame) else None)


def check(
    release: Table,
    *,
    qi: Union[None, str, Sequence[str]] = None,
    schema: Union[None, str, "os.PathLike[str]"] = None,
    k: Optional[int] = None,
    k_column: Optional[str] = None,
    k_dist: Optional[str] = None,
    k_preset: Optional[str] = None,
    k_levels: Optional[str] = None,
    seed: int = 0,
    k_assign: Optional[str] = None,
    k_axes: Optional[str] = None,
    k_axis_order: Sequence[str] = (),
    original: Optional[Table] = None,
    delimiter: Optional[str] = None,
    drop_missing: bool = False,
) -> Dict[str, Any]:
    """Checks a released table independently, as ``optik check`` does: every row must share
    its quasi-identifier text with at least k_i - 1 other rows.

    The k_i come from the release, or, for a ``k_column`` the release does not have, from
    ``original`` (rows in release order). Returns the check report (``verified``,
    ``records``, ``groups``, ``min_group``, ``violations``, ``first_violation``): a release
    that is not k_i-anonymous is not an error, ``verified`` is False.
    """
    source, name = _table(release)
    return json.loads(
        _optik.check(
            source,
            name,
            qi=_qi(qi),
            schema=_path(schema),
            k=k,
            k_column=k_column,
            k_dist=k_dist,
            k_preset=k_preset,
            k_levels=k_levels,
            seed=seed,
            k_assign=k_assign,
            k_axes=k_axes,
            k_axis_order=list(k_axis_order),
            original=_original(original),
            delimiter=delimiter,
            drop_missing=drop_missing,
        )
    )


def assess(
    data: Table,
    *,
    qi: Union[None, str, Sequence[str]] = None,
    schema: Union[None, str, "os.PathLike[str]"] = None,
    k: Optional[int] = None,
    k_column: Optional[str] = None,
    k_dist: Optional[str] = None,
    k_preset: Optional[str] = None,
    k_levels: Optional[str] = None,
    seed: int = 0,
    k_assign: Optional[str] = None,
    k_axes: Optional[str] = None,
    k_axis_order: Sequence[str] = (),
    sensitive: Union[None, str, Sequence[str]] = None,
    original: Optional[Table] = None,
    risk_threshold: float = 0.2,
    max_subset: int = 3,
    c: float = 3.0,
    semantic: Union[None, str, "os.PathLike[str]"] = None,
    sensitive_hierarchy: Sequence[str] = (),
    sensitive_levels: Sequence[str] = (),
    delimiter: Optional[str] = None,
    drop_missing: bool = False,
) -> Dict[str, Any]:
    """Measures the privacy and utility of any table, as ``optik assess`` does (see
    docs/assess.md): classes and k achieved, risks, distinction and separation, diversity,
    closeness, the Discrimination Rates, and with ``original`` the information loss.

    The k source is optional here. ``sensitive_hierarchy`` items are ``"COLUMN=FILE"``,
    ``sensitive_levels`` items ``"COLUMN=a,b,c"``. Returns the report as a dict.
    """
    source, name = _table(data)
    return json.loads(
        _optik.assess(
            source,
            name,
            qi=_qi(qi),
            schema=_path(schema),
            k=k,
            k_column=k_column,
            k_dist=k_dist,
            k_preset=k_preset,
            k_levels=k_levels,
            seed=seed,
            k_assign=k_assign,
            k_axes=k_axes,
            k_axis_order=list(k_axis_order),
            sensitive=_qi(sensitive),
            original=_original(original),
            risk_threshold=risk_threshold,
            max_subset=max_subset,
            c=c,
            semantic=_path(semantic),
            sensitive_hierarchy=list(sensitive_hierarchy),
            sensitive_levels=list(sensitive_levels),
            delimiter=delimiter,
            drop_missing=drop_missing,
        )
    )


def export(
    data: Table,
    *,
    qi: Union[None, str, Sequence[str]] = None,
    schema: Union[None, str, "os.PathLike[str]"] = None,
    k: Optional[int] = None,
    k_column: Optional[str] = None,
    k_dist: Optional[str] = None,
    k_preset: Optional[str] = None,
    k_levels: Optional[str] = None,
    seed: int = 0,
    k_assign: Optional[str] = None,
    k_axes: Optional[str] = None,
    k_axis_order: Sequence[str] = (),
    format: str = "json",
    criterion: str = "dbil",
    scale: float = 1000.0,
    delimiter: Optional[str] = None,
    drop_missing: bool = False,
) -> str:
    """The exact engines' instance of a table (distances x ``scale``, rounded, and the k_i),
    as ``optik export`` writes it: ``format="json"`` (``{"n", "scale", "k", "dist"}``),
    ``"dzn"`` (MiniZinc data for models/minizinc/ki_anonymity.mzn) or ``"lp"`` (the compact
    MIP of ``criterion``). Returns the text.
    """
    source, name = _table(data)
    return _optik.export(
        source,
        name,
        qi=_qi(qi),
        schema=_path(schema),
        k=k,
        k_column=k_column,
        k_dist=k_dist,
        k_preset=k_preset,
        k_levels=k_levels,
        seed=seed,
        k_assign=k_assign,
        k_axes=k_axes,
        k_axis_order=list(k_axis_order),
        format=format,
        criterion=criterion,
        scale=scale,
        delimiter=delimiter,
        drop_missing=drop_missing,
    )
