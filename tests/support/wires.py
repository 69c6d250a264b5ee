"""Provider wire formats for the fake LLM server: one small handler per format.

`FakeLLM(wire=...)` speaks a provider's own HTTP API while its scripted behaviour stays the
same: a handler turns the provider's request body into the OpenAI chat shape the fake
understands (`to_chat`), and the fake's OpenAI-shaped answer or error back into the
provider's (`reply`, `error`). Formats: OpenAI chat completions (`OPENAI`), Azure OpenAI
deployments (`AZURE`), Anthropic Messages (`ANTHROPIC`), Gemini generateContent (`GEMINI`),
Ollama /api/chat (`OLLAMA_CHAT`) and /api/generate (`OLLAMA_GENERATE`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

Body = dict[str, Any]


def _text(content: Any) -> str:
    """A message's content as text (a string, or a list of text parts)."""
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return "" if content is None else str(content)


def _choice(reply: Body) -> tuple[str, int, int]:
    """The assistant text and token counts of an OpenAI-shaped reply."""
    text = _text(reply["choices"][0]["message"].get("content"))
    usage = reply.get("usage") if isinstance(reply.get("usage"), dict) else {}
    return text, int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)


def _message_of(error: Body) -> str:
    inner = error.get("error")
    return str(inner.get("message", "")) if isinstance(inner, dict) else str(inner or "")


@dataclass(frozen=True)
class Wire:
    """OpenAI chat completions: the fake's own shape, passed through unchanged."""

    name: str = "openai"
    paths: str = r"/(v1/)?chat/completions"

    def matches(self, path: str) -> bool:
        return re.fullmatch(self.paths, urlsplit(path).path.rstrip("/")) is not None

    def to_chat(self, body: Body, path: str) -> Body:
        return body

    def reply(self, reply: Body, chat: Body) -> Body:
        return reply

    def error(self, status: int, error: Body) -> Body:
        return error


@dataclass(frozen=True)
class AzureWire(Wire):
    """Azure OpenAI: /openai/deployments/<deployment>/chat/completions?api-version=...;
    the deployment names the model."""

    name: str = "azure"
    paths: str = r"(/openai)?/deployments/[^/]+/chat/completions"

    def to_chat(self, body: Body, path: str) -> Body:
        deployment = urlsplit(path).path.rstrip("/").split("/")[-3]
        query = parse_qs(urlsplit(path).query)
        return {**body, "model": deployment,
                "api_version": (query.get("api-version") or [None])[0]}


@dataclass(frozen=True)
class AnthropicWire(Wire):
    """Anthropic Messages: POST /v1/messages, `system` apart, content blocks, usage in
    input_tokens / output_tokens."""

    name: str = "anthropic"
    paths: str = r"(/v1)?/messages"

    def to_chat(self, body: Body, path: str) -> Body:
        messages = [{"role": m.get("role"), "content": _text(m.get("content"))}
                    for m in body.get("messages", [])]
        if body.get("system"):
            messages.insert(0, {"role": "system", "content": _text(body["system"])})
        out = {"model": body.get("model"), "messages": messages,
               "max_tokens": body.get("max_tokens")}
        if body.get("output_format"):
            out["response_format"] = body["output_format"]
        return out

    def reply(self, reply: Body, chat: Body) -> Body:
        text, prompt, completion = _choice(reply)
        return {"id": "msg_fake", "type": "message", "role": "assistant",
                "model": chat.get("model"), "content": [{"type": "text", "text": text}],
                "stop_reason": "end_turn", "stop_sequence": None,
                "usage": {"input_tokens": prompt, "output_tokens": completion}}

    def error(self, status: int, error: Body) -> Body:
        kind = "overloaded_error" if status == 529 else "api_error"
        return {"type": "error", "error": {"type": kind, "message": _message_of(error)}}


@dataclass(frozen=True)
class GeminiWire(Wire):
    """Gemini generateContent: POST .../models/<model>:generateContent, `contents` with
    parts, `generationConfig`, usage in usageMetadata."""

    name: str = "gemini"
    paths: str = r"(/v1beta|/v1)?/models/[^/:]+:generateContent"

    def to_chat(self, body: Body, path: str) -> Body:
        model = urlsplit(path).path.rsplit("/", 1)[-1].split(":")[0]
        messages = []
        system = body.get("system_instruction") or body.get("systemInstruction")
        if system:
            messages.append({"role": "system", "content": _text(system.get("parts"))})
        for c in body.get("contents", []):
            role = "assistant" if c.get("role") == "model" else "user"
            messages.append({"role": role, "content": _text(c.get("parts"))})
        config = body.get("generationConfig") or body.get("generation_config") or {}
        out = {"model": model, "messages": messages,
               "max_tokens": config.get("max_output_tokens") or config.get("maxOutputTokens")}
        mime = config.get("response_mime_type") or config.get("responseMimeType")
        schema = next((config[k] for k in ("response_json_schema", "response_schema",
                                           "responseJsonSchema", "responseSchema")
                       if config.get(k)), None)
        if mime:
            out["response_format"] = {"type": mime, **({"schema": schema} if schema else {})}
        return out

    def reply(self, reply: Body, chat: Body) -> Body:
        text, prompt, completion = _choice(reply)
        return {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]},
                                "finishReason": "STOP", "index": 0}],
                "usageMetadata": {"promptTokenCount": prompt,
                                  "candidatesTokenCount": completion,
                                  "totalTokenCount": prompt + completion},
                "modelVersion": chat.get("model")}

    def error(self, status: int, error: Body) -> Body:
        return {"error": {"code": status, "message": _message_of(error), "status": "INTERNAL"}}


@dataclass(frozen=True)
class OllamaChatWire(Wire):
    """Ollama /api/chat: messages in, one `message` out, counts in prompt_eval_count /
    eval_count; `options.num_predict` caps the reply."""

    name: str = "ollama_chat"
    paths: str = r"/api/chat"

    def to_chat(self, body: Body, path: str) -> Body:
        messages = [{"role": m.get("role"), "content": _text(m.get("content"))}
                    for m in body.get("messages", [])]
        return self._common(body, messages)

    @staticmethod
    def _common(body: Body, messages: list[Body]) -> Body:
        out = {"model": body.get("model"), "messages": messages,
               "max_tokens": (body.get("options") or {}).get("num_predict"),
               "options": body.get("options") or {}}
        if body.get("format"):
            out["response_format"] = {"type": body["format"]}
        return out

    def reply(self, reply: Body, chat: Body) -> Body:
        text, prompt, completion = _choice(reply)
        return {"model": chat.get("model"), "created_at": "2026-02-25T00:00:00Z",
                "message": {"role": "assistant", "content": text}, "done": True,
                "done_reason": "stop", "prompt_eval_count": prompt, "eval_count": completion}

    def error(self, status: int, error: Body) -> Body:
        return {"error": _message_of(error)}


@dataclass(frozen=True)
class OllamaGenerateWire(OllamaChatWire):
    """Ollama /api/generate: one `prompt` (and maybe `system`) in, `response` out."""

    name: str = "ollama"
    paths: str = r"/api/generate"

    def to_chat(self, body: Body, path: str) -> Body:
        messages = [{"role": "user", "content": str(body.get("prompt", ""))}]
        if body.get("system"):
            messages.insert(0, {"role": "system", "content": str(body["system"])})
        return self._common(body, messages)

    def reply(self, reply: Body, chat: Body) -> Body:
        out = super().reply(reply, chat)
        out["response"] = out.pop("message")["content"]
        return out


OPENAI = Wire()
AZURE = AzureWire()
ANTHROPIC = AnthropicWire()
GEMINI = GeminiWire()
OLLAMA_CHAT = OllamaChatWire()
OLLAMA_GENERATE = OllamaGenerateWire()
