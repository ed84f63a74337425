import pytest

from engine.bits import CardError, Catalogue, card_from_json, load_catalogue, parse_card
from engine.shapes import Shape


def test_catalogue_has_four_cards_per_pile_and_the_known_ones():
    catalogue = load_catalogue()
    assert [len(catalogue.pile(n)) for n in (1, 2, 3, 4)] == [4, 4, 4, 4]
    square = catalogue["square"]
    assert (square.shape, square.points, square.fours, square.status) == (
        Shape.parse("##/##"),
        2,
        1,
        "known",
    )
    assert catalogue["pair"].points == -2 and catalogue["pair"].status == "known"


def test_inline_card_with_every_key():
    card = parse_card("name=mine, shape=XX/X., colour=blue, points=3, pile=4, fours=1")
    assert (card.name, len(card.shape), card.colour, card.points, card.pile, card.fours) == (
        "mine", 3, "B", 3, 4, 1,
    )  # fmt: skip
    assert parse_card(card.spec()) == card


def test_inline_defaults_follow_the_pile():
    assert (parse_card("shape=##").points, parse_card("shape=##").fours) == (2, 1)
    assert parse_card("shape=##,pile=3").points == -2
    assert parse_card("shape=##,pile=2").fours == 0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("nonsense", "no task card named 'nonsense'"),
        ("shape=#.#", "joined by edges"),
        ("shape=#######", "1 to 6 cells"),
        ("shape=##,pile=5", "pile is 1, 2, 3 or 4"),
        ("shape=##,pile=3,points=2", "pile-3 cards take points away"),
        ("shape=##,colour=G", "colour 'G'"),
        ("shape=##,points=two", "points must be a whole number"),
        ("shape=##,pile=1,pile=2", "pile given twice"),
        ("shape=##,size=2", "unknown key"),
        ("shape", "no task card named"),
        ("pile=2", "needs a shape"),
    ],
)
def test_bad_cards_say_what_is_wrong(text, message):
    with pytest.raises(CardError, match=message):
        parse_card(text)


def test_cards_from_json_and_a_users_catalogue_file(tmp_path):
    assert card_from_json({"shape": "###", "pile": 2, "colour": "R"}).colour == "R"
    assert card_from_json("square").name == "square"
    with pytest.raises(CardError):
        card_from_json(3)
    path = tmp_path / "cards.toml"
    path.write_text('[[card]]\nname = "big"\nshape = "###/###"\npoints = 5\npile = 4\n')
    catalogue = Catalogue.from_file(path)
    assert catalogue["big"].size == 6
    path.write_text("[[card]\n")
    with pytest.raises(CardError, match=r"cards\.toml"):
        Catalogue.from_file(path)
    with pytest.raises(CardError, match="two cards are named"):
        load_catalogue().plus([parse_card("name=square,shape=#")])
