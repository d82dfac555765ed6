"""Type stubs of the extension module optik._optik (python/src/): the library calls the
package optik wraps. A table is CSV bytes (named ``name`` in messages) or a file path."""

from typing import List, Optional, Union

__version__: str

class Run:
    """A verified anonymisation and the dataset it was made of."""

    @property
    def release_csv(self) -> bytes: ...
    @property
    def report_json(self) -> str: ...
    @property
    def rows(self) -> List[int]: ...
    @property
    def classes(self) -> List[int]: ...
    def svg(self, plot_axes: Optional[str] = None) -> str: ...
    def html(self, plot_axes: Optional[str] = None) -> str: ...

def anonymise(
    data: Union[bytes, str],
    name: str,
    *,
    qi: Optional[str] = None,
    schema: Optional[str] = None,
    k: Optional[int] = None,
    k_column: Optional[str] = None,
    k_dist: Optional[str] = None,
    k_preset: Optional[str] = None,
    k_levels: Optional[str] = None,
    seed: int = 0,
    k_assign: Optional[str] = None,
    k_axes: Optional[str] = None,
    k_axis_order: List[str] = ...,
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
    links: Optional[str] = None,
    link_key: Optional[str] = None,
    max_class_size: Optional[int] = None,
    class_column: Optional[str] = None,
    compare: bool = False,
    release: str = "generalised",
    delimiter: Optional[str] = None,
    drop_missing: bool = False,
    quiet: bool = True,
) -> Run: ...
def check(
    data: Union[bytes, str],
    name: str,
    *,
    qi: Optional[str] = None,
    schema: Optional[str] = None,
    k: Optional[int] = None,
    k_column: Optional[str] = None,
    k_dist: Optional[str] = None,
    k_preset: Optional[str] = None,
    k_levels: Optional[str] = None,
    seed: int = 0,
    k_assign: Optional[str] = None,
    k_axes: Optional[str] = None,
    k_axis_order: List[str] = ...,
    original: Union[None, bytes, str] = None,
    delimiter: Optional[str] = None,
    drop_missing: bool = False,
) -> str: ...
def assess(
    data: Union[bytes, str],
    name: str,
    *,
    qi: Optional[str] = None,
    schema: Optional[str] = None,
    k: Optional[int] = None,
    k_column: Optional[str] = None,
    k_dist: Optional[str] = None,
    k_preset: Optional[str] = None,
    k_levels: Optional[str] = None,
    seed: int = 0,
    k_assign: Optional[str] = None,
    k_axes: Optional[str] = None,
    k_axis_order: List[str] = ...,
    sensitive: Optional[str] = None,
    original: Union[None, bytes, str] = None,
    risk_threshold: float = 0.2,
    max_subset: int = 3,
    c: float = 3.0,
    semantic: Optional[str] = None,
    sensitive_hierarchy: List[str] = ...,
    sensitive_levels: List[str] = ...,
    delimiter: Optional[str] = None,
    drop_missing: bool = False,
) -> str: ...
def export(
    data: Union[bytes, str],
    name: str,
    *,
    qi: Optional[str] = None,
    schema: Optional[str] = None,
    k: Optional[int] = None,
    k_column: Optional[str] = None,
    k_dist: Optional[str] = None,
    k_preset: Optional[str] = None,
    k_levels: Optional[str] = None,
    seed: int = 0,
    k_assign: Optional[str] = None,
    k_axes: Optional[str] = None,
    k_axis_order: List[str] = ...,
    format: str = "json",
    criterion: str = "dbil",
    scale: float = 1000.0,
    delimiter: Optional[str] = None,
    drop_missing: bool = False,
) -> str: ...
