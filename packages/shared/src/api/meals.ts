import { FileAnswer, GET, POST, extraOf } from './define';
import { PendingPayment } from '../answers/school';
import {
  DelMealGoodsResult,
  DinnerBooking,
  DinnerBookingCount,
  DinnerBookingInfoPage,
  DinnerBookingPage,
  MealCountAnswer,
  MealGoods,
  MealGoodsPage,
  MealGoodsPrices,
  MealSettings,
  ParentMeals,
} from '../answers/meals';
import {
  AddMealGoodsInput,
  BookDinnerInput,
  CancelDinnerInput,
  DelMealGoodsInput,
  DinnerBookingCountInfoQuery,
  DinnerBookingCountQuery,
  DinnerOrderListQuery,
  EditMealGoodsInput,
  EditMealGoodsPriceInput,
  MealGoodsIdQuery,
  MealGoodsListQuery,
  OperateMealGoodsInput,
  OrderMealCountQuery,
  ParentMealsQuery,
  SchoolDinnerOrderExportQuery,
  SchoolDinnerOrderListQuery,
  SetMealSettingsInput,
  WechatPayDinnerInput,
} from '../schemas/meals';
import { EmptyInput } from '../schemas/auth';

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('meals');

/** The actions of module `meals` (docs/modules/meals.md). */
export const mealsActions = [
  GET('mealGoodsList', MealGoodsListQuery, MealGoodsPage),
  POST('addMealGoods', AddMealGoodsInput, MealGoods),
  POST('editMealGoods', EditMealGoodsInput, MealGoods),
  POST('editMealGoodsPrice', EditMealGoodsPriceInput, MealGoods),
  POST('operateMealGoods', OperateMealGoodsInput, MealGoods),
  POST('delMealGoods', DelMealGoodsInput, DelMealGoodsResult),
  GET('dinnerOrderList', DinnerOrderListQuery, DinnerBookingPage),
  GET('schoolDinnerOrderList', SchoolDinnerOrderListQuery, DinnerBookingPage),
  GET('orderMealCount', OrderMealCountQuery, MealCountAnswer),
  GET('dinnerBookingCount', DinnerBookingCountQuery, DinnerBookingCount),
  GET('dinnerBookingCountInfo', DinnerBookingCountInfoQuery, DinnerBookingInfoPage),
  GET(
    'mealGoodsPrices',
    MealGoodsIdQuery,
    MealGoodsPrices,
    extra(['A'], "a meal item's price history, newest first (append-only: who changed it, when, why)"),
  ),
  GET(
    'mealSettings',
    EmptyInput,
    MealSettings,
    extra(
      ['A', 'H', 'P'],
      "the school's dinner-booking cutoff (HH:MM, the same day or the day before, school-local) with the school's day and time now",
    ),
  ),
  POST(
    'setMealSettings',
    SetMealSettingsInput,
    MealSettings,
    extra(
      ['A'],
      "the admin sets the school's dinner-booking cutoff (optimistic concurrency on version); after it only the school changes a day's bookings",
    ),
  ),
  POST(
    'bookDinner',
    BookDinnerInput,
    DinnerBooking,
    extra(
      ['A', 'H', 'P'],
      "book one student's dinner of one day with one enabled item at its current price (a guardian: an own child before the cutoff; a head teacher: a student of an own class; the admin: any student); paid from a contract that includes dinner, else by WeChat Pay (guardians: unpaid until paid) or recorded by the school; one booking per student and day (a rebooking changes it), idempotent by request_id",
    ),
  ),
  POST(
    'cancelDinner',
    CancelDinnerInput,
    DinnerBooking,
    extra(
      ['A', 'H', 'P'],
      'cancel a dinner booking (a guardian: own child, before the cutoff) on the version read; a WeChat-paid booking is refunded in full',
    ),
  ),
  POST(
    'wechatPayDinner',
    WechatPayDinnerInput,
    PendingPayment,
    extra(['P'], "a guardian pays an own child's unpaid dinner booking by WeChat Pay (Native QR); the paid notify books it"),
  ),
  GET(
    'parentMeals',
    ParentMealsQuery,
    ParentMeals,
    extra(
      ['P'],
      "a guardian's meals page: an own child's bookings over a range (with what was served), the enabled items, the cutoff and the days a contract with dinner covers",
    ),
  ),
  GET(
    'schoolDinnerOrderExport',
    SchoolDinnerOrderExportQuery,
    FileAnswer,
    extra(['A'], 'download the filtered dinner orders of schoolDinnerOrderList as .xlsx (Chinese headers, yuan)'),
  ),
  GET(
    'orderMealCountExport',
    OrderMealCountQuery,
    FileAnswer,
    extra(
      ['A', 'H'],
      'download the numbers of orderMealCount (per period and item: booked, cancelled, served, unbooked served; classMealCount for a head teacher) as .xlsx with Chinese headers',
    ),
  ),
  GET(
    'classMealCount',
    OrderMealCountQuery,
    MealCountAnswer,
    extra(['H'], "the head teacher's data centre: orderMealCount over the students of their own classes"),
  ),
] as const;
