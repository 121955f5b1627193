"""The match orders every bench seat sends (shared by ``_services`` and ``orders.py``)."""

#: A seat's orders for its first match: XI, captain, batting order, bowling plan and a
#: conditional order (every bench squad has its roles in the same slots; ``{k}`` is the name
#: in slot k, as the naming mails named it).
MATCH_ORDERS = """XI: 1,2,3,4,7,9,10,12,13,14,15
captain #2
batting order: {1} (aggressive), {2}, {3}, {4}, {7}, {9}, {10}, {12}, {13}, {14}, {15}
{14} and {15} open
{14} overs 3, 17, 19
{15} overs 4, 18, 20
{12} overs 5, 7, 9, 11
{13} overs 6, 8, 10, 12
{9} overs 13, 15
{10} overs 14, 16
if we win the toss, bat first
if we have lost fewer than 3 wickets after 10 overs, all batsmen aggressive
"""
