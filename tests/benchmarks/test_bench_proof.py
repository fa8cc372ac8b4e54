"""bench/audit/proof.py runs and prints every figure of the public log's cost."""

from bench.audit import proof


def test_the_proof_benchmark_prints_its_figures(redis_url):
    rows = proof.rows(redis_url, 300)
    cells = [row.strip("| ").split(" | ") for row in rows[2:]]
    table = {name: value for name, value in cells}
    assert table["leaves in the log"] == "300"
    assert len(table) == 9
    for value in table.values():  # every figure is a number, with its unit
        assert value.split()[0].replace(",", "").replace(".", "").isdigit(), value
