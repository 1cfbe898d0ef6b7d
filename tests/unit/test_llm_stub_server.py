"""ChatOpenAI against the local OpenAI-compatible stub: tool schemas, tool-call parsing, usage, retries."""

from __future__ import annotations

from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.tools import tool

from webtester.agents.checklist import generate_checklist
from webtester.llm.factory import make_chat_model
from webtester.llm.scripted import Script
from webtester.llm.stub_server import StubServer

ITEMS = [
    {"dimension": "functionality", "description": "Add a task", "action": "Type 'milk' and press Add", "expected": "'milk' is listed"},
    {"dimension": "CS", "description": "Empty tasks are rejected", "action": "Press Add with an empty box", "expected": "An error shows"},
]


@tool
def fill(ref: str, text: str) -> str:
    """Fill a text box."""
    return f"filled {ref}"


def test_checklist_through_chatopenai_with_transient_error_and_bad_json():
    script = Script.build({"checklist": [
        {"http_error": 503, "times": 1, "invalid_tool_call": {"name": "ChecklistOutput", "args": "{\"items\": [oops"}},
        {"structured": {"items": ITEMS}, "usage": {"input_tokens": 1200, "output_tokens": 300, "total_tokens": 1500}},
    ]})
    with StubServer(script) as server:
        model = make_chat_model("stub-model", base_url=server.url)
        checklist = generate_checklist(model, "A todo list app", "http://127.0.0.1:1/", max_items=20)
        requests = list(server.requests)
    # 503 retried by the client, then the malformed reply, then the repaired request
    assert len(requests) == 3
    assert all(r["model"] == "stub-model" for r in requests)
    assert requests[0]["tools"][0]["function"]["name"] == "ChecklistOutput"
    assert "items" in requests[0]["tools"][0]["function"]["parameters"]["properties"]
    assert requests[2]["messages"][-1]["role"] == "user" and "not valid JSON" in requests[2]["messages"][-1]["content"]
    assert [i.id for i in checklist.items] == ["FT-01", "CS-01"]
    assert checklist.cost.model_calls == 2
    assert checklist.cost.input_tokens >= 1200 and checklist.cost.output_tokens >= 300


def test_tool_calls_and_usage_parsed_from_the_wire():
    script = Script.build({"items": {"FT-03": [
        {"tool_calls": [{"name": "fill", "args": {"ref": {"$match": r'textbox "Task" \[(e\d+)\]'}, "text": "milk"}}],
         "usage": {"input_tokens": 50, "output_tokens": 7, "total_tokens": 57}},
    ]}})
    with StubServer(script) as server:
        model = make_chat_model("stub-model", base_url=server.url).bind_tools([fill])
        reply = model.invoke([SystemMessage(content="sys"), HumanMessage(content='Test item id: FT-03\ntextbox "Task" [e4]')])
        sent = server.requests[0]
    assert reply.tool_calls == [{"name": "fill", "args": {"ref": "e4", "text": "milk"}, "id": "call_FT-03_0_0", "type": "tool_call"}]
    assert reply.usage_metadata["input_tokens"] == 50 and reply.usage_metadata["output_tokens"] == 7
    assert sent["tools"][0]["function"]["name"] == "fill"
    assert set(sent["tools"][0]["function"]["parameters"]["required"]) == {"ref", "text"}
