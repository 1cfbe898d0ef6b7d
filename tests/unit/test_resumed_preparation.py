"""A resumed baseline instance reuses what its stopped run saved, moved to the port the app has now."""

from __future__ import annotations

from webtester.baseline.crawl import CrawlEdge, CrawlState, StateGraph
from webtester.baseline.tester import START_PAGE_FILE, BaselineTester, rebase_urls
from webtester.runfolder import EXPLORATION_FILE, STATE_GRAPH_FILE, write_json

OLD, NEW = "http://127.0.0.1:5173", "http://127.0.0.1:40123"


def _graph() -> StateGraph:
    home = CrawlState(id="s0", url=f"{OLD}/", title="Shop", headings=["Shop"], text="Products", controls=[], dialog=False)
    cart = CrawlState(id="s1", url=f"{OLD}/cart#top", title="Cart", headings=["Cart"], text="Cart", controls=[],
                      dialog=False, via='click "Cart"')
    return StateGraph(states=[home, cart], edges=[CrawlEdge("s0", 'click "Cart"', "s1")], routes=[f"{OLD}/", f"{OLD}/cart"])


def test_an_origin_is_replaced_only_where_it_ends():
    data = {"a": [f"{OLD}/x", f"open {OLD}", f"{OLD}0/y", f"'{OLD}'", 3]}
    assert rebase_urls(data, OLD, NEW) == {"a": [f"{NEW}/x", f"open {NEW}", f"{OLD}0/y", f"'{NEW}'", 3]}


class _NoPages:
    def new_page(self, url: str, **_: object):
        raise AssertionError(f"nothing left to prepare, yet a page was opened on {url}")


def test_a_resumed_instance_follows_the_saved_graph_on_the_app_s_new_port(tmp_path):
    folder = tmp_path / "run" / "app_1"
    write_json(folder / STATE_GRAPH_FILE, _graph().to_dict())
    write_json(folder / START_PAGE_FILE, {"error": "Timeout"})
    write_json(folder / EXPLORATION_FILE, {"pages": [f"{OLD}/"]})
    tester = BaselineTester(absence_model=None)
    tester.start_instance("app_1", folder)
    tester.prepare(f"{NEW}/", _NoPages())
    graph = tester._graph
    assert graph is not None
    assert graph.routes == [f"{NEW}/", f"{NEW}/cart"]
    assert [s.url for s in graph.states] == [f"{NEW}/", f"{NEW}/cart#top"]
    assert graph.path_to("s1")[0] == f"open {NEW}/"
