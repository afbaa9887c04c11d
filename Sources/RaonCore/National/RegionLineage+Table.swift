extension RegionLineage {
  /// The lineage Raon ships: every 시·도 with the names it has had (and their short forms,
  /// as addresses write them), and the 시·군·구 whose name, 시·도 or existence changed.
  /// docs/NATIONAL.md explains each kind of line; `raon.toml`'s `[national]` section adds
  /// to it (``RegionLineage/renaming(_:to:since:)``, ``RegionLineage/merging(_:into:on:)``).
  ///
  /// Tab-separated, one fact a line (a test reads this same text in Python):
  /// - `province ID NAME FROM UNTIL CODES SHORT-FORMS` — a 시·도's name from FROM until UNTIL
  ///   (empty: open), its provider codes and other spellings (comma-separated).
  /// - `body ID PROVINCE NAME FROM UNTIL CODES` — a 시·군·구 named NAME in PROVINCE over
  ///   that time; the lines of one ID are one body through its renames and moves.
  /// - `merge ID INTO ON` — body ID became part of INTO on that day: its events go on as
  ///   INTO's (a split is listed as a merge into the part most of its events go to).
  static let shippedTable = """
    province\t서울\t서울특별시\t\t\t6110000\t서울시,서울
    province\t부산\t부산광역시\t\t\t6260000\t부산시,부산
    province\t대구\t대구광역시\t\t\t6270000\t대구시,대구
    province\t인천\t인천광역시\t\t\t6280000\t인천시,인천
    province\t광주\t광주광역시\t\t\t6290000\t광주
    province\t대전\t대전광역시\t\t\t6300000\t대전시,대전
    province\t울산\t울산광역시\t\t\t6310000\t울산시,울산
    province\t세종\t세종특별자치시\t2012-07-01\t\t5690000\t세종시,세종
    province\t경기\t경기도\t\t\t6410000\t경기
    province\t강원\t강원도\t\t2023-06-10\t6420000\t
    province\t강원\t강원특별자치도\t2023-06-11\t\t6530000\t강원
    province\t충북\t충청북도\t\t\t6430000\t충북
    province\t충남\t충청남도\t\t\t6440000\t충남
    province\t전북\t전라북도\t\t2024-01-17\t6450000\t
    province\t전북\t전북특별자치도\t2024-01-18\t\t6540000\t전북
    province\t전남\t전라남도\t\t\t6460000\t전남
    province\t경북\t경상북도\t\t\t6470000\t경북
    province\t경남\t경상남도\t\t\t6480000\t경남
    province\t제주\t제주도\t\t2006-06-30\t\t
    province\t제주\t제주특별자치도\t2006-07-01\t\t6500000\t제주
    body\t대구 군위군\t경북\t군위군\t\t2023-06-30\t5140000
    body\t대구 군위군\t대구\t군위군\t2023-07-01\t\t5141000
    body\t인천 미추홀구\t인천\t남구\t\t2018-06-30\t3510000
    body\t인천 미추홀구\t인천\t미추홀구\t2018-07-01\t\t3510500
    body\t충남 당진시\t충남\t당진군\t\t2011-12-31\t
    body\t충남 당진시\t충남\t당진시\t2012-01-01\t\t5680000
    body\t경기 여주시\t경기\t여주군\t\t2013-09-22\t
    body\t경기 여주시\t경기\t여주시\t2013-09-23\t\t5700000
    body\t충북 청원군\t충북\t청원군\t\t2014-06-30\t4380000
    body\t세종 연기군\t충남\t연기군\t\t2012-06-30\t
    body\t인천 제물포구\t인천\t제물포구\t2026-07-01\t\t
    body\t인천 영종구\t인천\t영종구\t2026-07-01\t\t
    body\t인천 검단구\t인천\t검단구\t2026-07-01\t\t
    merge\t충북 청원군\t충북 청주시\t2014-07-01
    merge\t세종 연기군\t세종\t2012-07-01
    merge\t인천 동구\t인천 제물포구\t2026-07-01
    merge\t인천 중구\t인천 제물포구\t2026-07-01
    """
}
