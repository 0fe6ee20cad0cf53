"""Session 63 #3: ``_se_floor`` named the one-proportion plus-four estimate (pn + 2)/(n + 4)
"Agresti and Caffo" (their adjustment is for a difference of two proportions: a win and a loss
added to each); for one proportion it is Agresti and Coull's "plus four"."""

from analysis.questions import medievallons


def test_s63_se_floor_names_agresti_coull():
    doc = medievallons._se_floor.__doc__
    assert "Agresti and Coull" in doc and "plus four" in doc, doc
    assert "(pn + 2)/(n + 4) (Agresti and Caffo)" not in doc, doc
