"""One owner per state (issue 29): the day's topic and session are the day model's, and every
view reads them from it, repainting when the model says they changed. A screen, preview or
controller keeping a copy of its own would show the old topic here."""

from __future__ import annotations

from paperterm.day.model import DayChange
from paperterm.topics import resolve_topic


def _dismissed_shows(p, pid: str, name: str) -> bool:
    """The paper, dismissed, under the cursor says under which topic (a star or "not
    interested" ranks the day again: the cursor may have gone to the top meanwhile)."""
    if not p.entry(pid).dismissed:
        return False
    if p.current is None or p.current.id != pid:
        p.to_paper(pid)
        return False
    return f"not interested ({name})" in p.meta()


def _header_names(p, name: str) -> bool:
    header = " ".join(p.header().split())
    return f"topic {name} ·" in header or header.startswith(f"{name} ·")


async def test_a_topic_set_on_the_model_shows_in_every_view(make_session, make_app, probe,
                                                            until, size):
    """Only the model is told: the header, the preview, the notices and the controllers
    follow it (none keeps a topic of its own)."""
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        p = probe(app)
        await until(pilot, lambda: _header_names(p, "moe") and p.current is not None)
        agents = resolve_topic("agents", p.day.session.config).topic
        p.day.model.set_topic(agents)
        await until(pilot, lambda: _header_names(p, "agents"))
        assert p.day.topic is agents and p.day.session.topic is agents
        pid = p.current.id
        await pilot.press("d")  # not interested: said, and shown, under the model's topic
        await until(pilot, lambda: _dismissed_shows(p, pid, "agents"))
        assert p.said("Not interested (agents)")


async def test_switching_topic_with_t_goes_through_the_one_owner(make_session, make_app,
                                                                 probe, until, size):
    """`t`: the model's topic changes once (one notification saying so), the day's session
    holds that same topic, later days open with it, and the views show it."""
    app = make_app(make_session())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        p = probe(app)
        await until(pilot, lambda: _header_names(p, "moe") and p.current is not None)
        changes: list[DayChange] = []
        p.day.model.subscribe(changes.append)
        await pilot.press("t")
        await until(pilot, lambda: app.screen.__class__.__name__ == "SafeCommandPalette")
        await pilot.press(*"agents")
        await until(pilot, lambda: any(str(o.prompt).startswith("agents") for o in
                                       app.screen.query_one("CommandList").options))
        await pilot.press("enter")
        await until(pilot, lambda: _header_names(p, "agents"))
        model = p.day.model
        assert [c.state for c in changes if "topic" in c.state] == [
            frozenset({"topic", "session"})]
        assert model.topic.name == "agents"
        assert p.day.session is model.session and p.day.topic is model.topic
        assert app.session.topic is model.topic  # the topic later days open with
        pid = p.current.id
        await pilot.press("d")
        await until(pilot, lambda: _dismissed_shows(p, pid, "agents"))
