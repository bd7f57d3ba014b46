import { FileAnswer, GET, POST, extraOf } from './define';
import {
  AwardPointsResult,
  DelScoreGoodsResult,
  PointsStudentPage,
  ScoreCountAnswer,
  ScoreGoods,
  ScoreGoodsDetail,
  ScoreGoodsPage,
  ScoreOrder,
  ScoreOrderListAnswer,
  StudentPoints,
} from '../answers/points';
import {
  AddScoreGoodsInput,
  AddScoreGoodsStockInput,
  AwardPointsInput,
  CancelScoreOrderInput,
  DelScoreGoodsInput,
  EditScoreGoodsInput,
  EditScoreGoodsPriceInput,
  ExchangeScoreGoodsInput,
  HandOverScoreOrderInput,
  PointsShopQuery,
  PointsStudentsQuery,
  ScoreGoodsIdQuery,
  ScoreGoodsListQuery,
  ScoreOrderCountQuery,
  ScoreOrderListQuery,
  StudentPointsQuery,
  UnmountScoreGoodsInput,
} from '../schemas/points';

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('points');

/** The actions of module `points` (docs/modules/points.md). */
export const pointsActions = [
  GET('scoreGoodsList', ScoreGoodsListQuery, ScoreGoodsPage),
  POST('addScoreGoods', AddScoreGoodsInput, ScoreGoods),
  POST('editScoreGoods', EditScoreGoodsInput, ScoreGoods),
  POST('editScoreGoodsPrice', EditScoreGoodsPriceInput, ScoreGoods),
  POST('addScoreGoodsStock', AddScoreGoodsStockInput, ScoreGoods),
  POST('unmountScoreGoods', UnmountScoreGoodsInput, ScoreGoods),
  POST('delScoreGoods', DelScoreGoodsInput, DelScoreGoodsResult),
  GET('scoreOrderCount', ScoreOrderCountQuery, ScoreCountAnswer),
  GET(
    'pointsStudents',
    PointsStudentsQuery,
    PointsStudentPage,
    extra(
      ['A', 'T', 'H'],
      "students whose points the caller may change (a teacher's or head teacher's own students, the admin's whole school) with their balances, paged, by keyword or class",
    ),
  ),
  POST(
    'awardPoints',
    AwardPointsInput,
    AwardPointsResult,
    extra(
      ['A', 'T', 'H'],
      'award (points > 0) or deduct (points < 0) the same points to several students at once with a reason: one ledger entry each, all or none, never a negative balance (refused with the numbers); idempotent by request_id',
    ),
  ),
  GET(
    'studentPoints',
    StudentPointsQuery,
    StudentPoints,
    extra(['A', 'T', 'H', 'P'], "one student's points balance and ledger, newest first, paged (a guardian: an own child; a teacher: an own student)"),
  ),
  GET('scoreGoodsInfo', ScoreGoodsIdQuery, ScoreGoodsDetail, extra(['A'], 'one points good with its price history and stock moves')),
  GET('pointsShop', PointsShopQuery, ScoreGoodsPage, extra(['A', 'T', 'H', 'P'], 'the points goods on sale (listed), in-stock first, paged')),
  POST(
    'exchangeScoreGoods',
    ExchangeScoreGoodsInput,
    ScoreOrder,
    extra(
      ['A', 'T', 'H', 'P'],
      'exchange a points good for a student (a guardian: an own child; a teacher: an own student): the points and one unit of stock in one atomic step, never a negative balance or more than the stock; creates a pending exchange order; idempotent by request_id',
    ),
  ),
  GET(
    'scoreOrderList',
    ScoreOrderListQuery,
    ScoreOrderListAnswer,
    extra(
      ['A', 'T', 'H', 'P'],
      "exchange orders, newest first, paged, by state or student, with counts by state (the admin: the school's; a guardian: own children's; a teacher: own students')",
    ),
  ),
  POST('handOverScoreOrder', HandOverScoreOrderInput, ScoreOrder, extra(['A'], 'mark a pending exchange order handed over to the student')),
  POST(
    'cancelScoreOrder',
    CancelScoreOrderInput,
    ScoreOrder,
    extra(
      ['A'],
      'cancel a pending exchange order with a reason: the points and the unit of stock go back once (a refund ledger entry and a stock move), however often it is repeated',
    ),
  ),
  GET(
    'classScoreCount',
    ScoreOrderCountQuery,
    ScoreCountAnswer,
    extra(['H'], "the head teacher's data centre: scoreOrderCount over their own students"),
  ),
  GET(
    'scoreOrderCountExport',
    ScoreOrderCountQuery,
    FileAnswer,
    extra(['A', 'H'], 'download the numbers of scoreOrderCount (or classScoreCount for a head teacher) as .xlsx with Chinese headers'),
  ),
] as const;
