"""The store's parts, each written once for both backends on the queries of `bot.store.query`.

`base.Backend` is what a part needs of a backend (run a query, run a unit of
work as a write or a consistent read); `bot.store.sqlite` and
`bot.store.postgres` each provide it, and join these parts into their store.
"""
