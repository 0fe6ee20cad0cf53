"""Test helper (not a test module): the seat tables of two runs a review looked at in session 61
(a 20,000-game rotated 4-player Middle-Ages run, and a 10,000-game 3-player random one), as
:func:`analysis.seats` gives them, for the seat-gap and fair-share wording tests. Imported as
``from seat_tables import ROT, ROT_TESTS, R3, R3_TESTS`` (tests/ is on the path, as for page_tables)."""

ROT = {"seat": [0, 1, 2, 3], "seat_label": ["Seat 1", "Seat 2", "Seat 3", "Seat 4"], "games": [20000] * 4,
       "win_share": [0.24945, 0.26205, 0.246, 0.2425],
       "ci_low": [0.24469066685404567, 0.25739197288524535, 0.24151687416150633, 0.23744638467259813],
       "ci_high": [0.25427074060604005, 0.2667620422907602, 0.2505388552583751, 0.24762624505127664],
       "fair_share": [0.25] * 4,
       "diff": [-0.0005499999999999949, 0.012050000000000005, -0.0040000000000000036, -0.007500000000000007],
       "win_share_sd": [0.3456482092198763, 0.33807107005729126, 0.32551066255698546, 0.3672900494106521],
       "p_value": [0.8219547445732587, 4.637424829412275e-07, 0.08223902378740355, 0.0038794656950894607],
       "significant": [False, True, False, True],
       "verdict": ["not shown", "clear, may matter", "not shown", "clear, may matter"], "smallest": [0.01] * 4}
ROT_TESTS = {"games": 20000, "chi2": 25.567397265965916, "dof": 3, "p_value": 1.1748425099642855e-05,
             "seats_differ": True, "balance": 0.98725, "balance_low": 0.980716550261471,
             "balance_high": 0.9937834497385291, "advantage_p1": 0.4998166666666667,
             "advantage_p1_low": 0.49693643564928297, "advantage_p1_high": 0.5026968976840505}
R3 = {"seat": [0, 1, 2], "seat_label": ["Seat 1", "Seat 2", "Seat 3"], "games": [10000] * 3,
      "win_share": [0.3331, 0.3291, 0.3378],
      "ci_low": [0.32392790011081196, 0.319957556474102, 0.32859400959708773],
      "ci_high": [0.34240027854531985, 0.33837369416899515, 0.34713055947435967],
      "fair_share": [1 / 3] * 3,
      "diff": [-0.00023333333333330764, -0.004233333333333311, 0.004466666666666674],
      "win_share_sd": [0.47134552788868816, 0.4699098546818876, 0.47298364808218823],
      "p_value": [0.9605179127791871, 0.36765105851371915, 0.34498589963245885],
      "significant": [False] * 3, "verdict": ["not shown"] * 3, "smallest": [0.01] * 3}
R3_TESTS = {"games": 10000, "chi2": 1.1378, "dof": 2, "p_value": 0.5661478589504838, "seats_differ": False,
            "balance": 0.99855, "balance_low": 0.9820314338186208, "balance_high": 1.0,
            "advantage_p1": 0.5005, "advantage_p1_low": 0.49250592573019103,
            "advantage_p1_high": 0.5084940742698089}
