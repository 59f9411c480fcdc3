from tests.e2e.test_bot_e2e import env  # noqa: F401

async def test_smoke(env):  # noqa: F811
    fake, ch = env.fake, env.channel
    made = await fake.invoke(env.alice, ch, "game create caldera", {"name": "Deep", "captains": 3, "turn_hours": 2})
    print(made.text)
    game = int(made.text.split("(game ")[1].split(")")[0])
    print((await fake.invoke(env.alice, ch, "game join", {"name": "Ann"})).text)
    print((await fake.invoke(env.bob, ch, "game join", {"name": "Bob"})).text)
    print((await fake.invoke(env.alice, ch, "game add-ai", {"name": "Robo"})).text)
    r = await fake.invoke(env.alice, ch, "captain character", {"cha": 3, "int": 4, "eng": 4, "arm": 2, "com": 1, "eco": 1})
    print(r.text)
    r = await fake.invoke(env.alice, ch, "captain status")
    print(r.text)
    r = await fake.invoke(env.alice, ch, "captain bonus", {"bonus": "earth-interceptor"})
    print(r.text)
    r = await fake.invoke(env.alice, ch, "captain map")
    print(r.text, r.files if hasattr(r, 'files') else None)
    dm = await fake.wait_for_dm(env.alice, lambda m: bool(m.components), timeout=10)
    print("DM:", dm.content, dm.components)
    print([m.content for m in fake.dms(env.alice)])
