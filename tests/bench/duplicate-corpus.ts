/**
 * Generated Chinese research texts on grain storage, for the duplicate-checking benchmark and tests
 * (issue 15). Deterministic: a seed gives the same texts on every run (mulberry32).
 *
 * A text is paragraphs of sentences; a sentence joins two to four clauses drawn from a pool written after the
 * style of the field's papers and project reports (ventilation, low-temperature storage, grain condition
 * monitoring, pests, quality), each clause with its own slots (grain, facility, parameter, method …) and
 * measured values (temperatures, moisture, days, percentages). The slots and values keep two independently
 * generated texts from sharing long runs by chance, as two real papers on one subject share words and stock
 * phrases but seldom a whole sentence.
 */

/** mulberry32: a small seeded PRNG answering floats in [0, 1). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GRAIN = ['小麦', '稻谷', '玉米', '大豆', '粳稻', '籼稻', '早籼稻', '晚籼稻', '高粱', '大麦', '油菜籽', '花生仁', '荞麦', '燕麦', '青稞', '绿豆', '红小豆', '糙米', '面粉', '大米'];
const QUAL = ['新收获', '陈化', '进口', '储备', '高水分', '低水分', '优质', '轮换', '临储', '托市', '最低收购价', '东北产', '江淮产', '河南产', '湖北产', '安徽产', '两年期', '三年期', '入库初期', '散装', '包装', '机械烘干', '自然晾晒', '转基因', '有机', '高油', '糯性', '硬质', '软质', '强筋'];
const FACILITY = ['高大平房仓', '浅圆仓', '立筒仓', '楼房仓', '钢板仓', '地下仓', '准低温仓', '气调仓', '砖圆仓', '简易仓囤', '中转仓', '储备库', '罩棚', '散装仓', '包装仓'];
const FQUAL = ['跨度21米', '跨度24米', '跨度30米', '装粮线6米', '装粮线8米', '仓容5000吨', '仓容8000吨', '仓容1万吨', '新建', '改造后', '隔热改造', '气密改造', '屋面喷涂', '双层屋盖', '北方', '南方', '沿海', '内陆', '山区', '平原'];
const REGION = ['华北', '东北', '华东', '华中', '华南', '西南', '西北', '长江中下游', '黄淮海', '东北寒区', '南方高温高湿区', '第四储粮生态区', '第七储粮生态区', '第二储粮生态区', '京津冀', '珠三角', '成渝', '关中', '江汉平原', '洞庭湖区'];
const PARAM = ['粮温', '仓温', '仓湿', '水分', '脂肪酸值', '发芽率', '品尝评分值', '电导率', '降落数值', '面筋吸水量', '二氧化碳浓度', '氧气浓度', '磷化氢浓度', '虫口密度', '霉菌孢子数', '黄曲霉毒素含量', '容重', '不完善粒率', '整精米率', '粘度', '色泽', '气味', '丙二醛含量', '过氧化值'];
const PQUAL = ['表层', '底层', '中层', '平均', '最高', '最低', '日均', '周均', '月均', '局部', '北侧', '南侧', '东侧', '西侧', '中心点', '检测点'];
const METHOD = ['横向通风', '竖向通风', '谷冷机降温', '内环流控温', '膜下环流', '氮气气调', '二氧化碳气调', '磷化氢熏蒸', '保护剂防护', '智能通风', '压盖保冷', '空调控温', '排积热通风', '缓速降温通风', '保水通风', '膜下负压通风', '低剂量熏蒸', '环流熏蒸', '物理杀虫', '生物防治'];
const MQUAL = ['间歇式', '连续式', '分阶段', '夜间', '低温季节', '自动化', '远程控制的', '多参数联动的', '改进的', '传统', '优化后的', '分区', '局部', '全仓', '小功率', '大风量'];
const DEVICE = ['测温电缆', '无线传感器', '数字化测温系统', '粮情测控系统', '物联网网关', '通风控制柜', '制氮机', '谷物冷却机', '诱捕器', '近红外分析仪', '电子鼻', '高光谱相机', '气体检测仪', '温湿度记录仪', '扦样机', '巡检机器人'];
const PEST = ['玉米象', '米象', '谷蠹', '赤拟谷盗', '锈赤扁谷盗', '印度谷螟', '麦蛾', '书虱', '螨类', '长角扁谷盗', '锯谷盗', '杂拟谷盗', '绿豆象', '豌豆象'];
const MODEL = ['BP神经网络', '支持向量机', '随机森林', '长短期记忆网络', '灰色模型', '多元线性回归', '有限元模型', '流体动力学模型', '卷积神经网络', '梯度提升树', '贝叶斯网络', '卡尔曼滤波', '时间序列模型', '模糊控制'];
const EFFECT = ['明显降低', '有效抑制', '显著改善', '基本保持', '稳步提升', '逐步下降', '小幅波动', '持续上升', '趋于稳定', '大幅减少', '略有回升', '先升后降', '先降后升', '保持平稳'];
const ORG = ['课题组', '项目组', '试点库', '省级储备库', '直属库', '合作高校', '研究院', '质检中心', '分公司', '示范库点', '工程中心', '重点实验室'];
const STAGE = ['入仓', '储藏中期', '出仓前', '度夏期间', '越冬期间', '春季升温期', '秋季降温期', '熏蒸后', '通风后', '轮换前'];
const OUTPUT = ['技术规程', '操作手册', '管理办法', '软件著作权', '示范工程', '发明专利', '实用新型专利', '企业标准', '行业标准', '学术论文'];

const pick = <T>(r: () => number, a: readonly T[]): T => a[Math.floor(r() * a.length)];
const num = (r: () => number, lo: number, hi: number, digits = 2) => (lo + r() * (hi - lo)).toFixed(digits);
const int = (r: () => number, lo: number, hi: number) => String(lo + Math.floor(r() * (hi - lo + 1)));
/** A noun with a qualifier half of the time. */
const q = (r: () => number, qual: readonly string[], noun: readonly string[]) => (r() < 0.6 ? pick(r, qual) : '') + pick(r, noun);
const grain = (r: () => number) => q(r, QUAL, GRAIN);
const facility = (r: () => number) => q(r, FQUAL, FACILITY);
const param = (r: () => number) => q(r, PQUAL, PARAM);
const method = (r: () => number) => q(r, MQUAL, METHOD);

type Clause = (r: () => number) => string;

const CLAUSES: Clause[] = [
  (r) => `${pick(r, REGION)}${facility(r)}储存的${grain(r)}${int(r, 1, 12)}月${param(r)}为${num(r, 5, 35)}`,
  (r) => `采用${method(r)}处理${int(r, 2, 90)}天后${param(r)}${pick(r, EFFECT)}${num(r, 0.5, 40)}%`,
  (r) => `${facility(r)}装${grain(r)}${int(r, 1500, 9800)}吨，堆高${num(r, 4, 12)}米，布设${pick(r, DEVICE)}${int(r, 20, 400)}个`,
  (r) => `以${param(r)}和${param(r)}为输入，用${pick(r, MODEL)}预测${param(r)}，决定系数${num(r, 0.8, 0.99, 3)}`,
  (r) => `${pick(r, PEST)}在${param(r)}高于${num(r, 15, 30)}时繁殖加快，${pick(r, STAGE)}密度达每千克${int(r, 2, 90)}头`,
  (r) => `${method(r)}每吨能耗${num(r, 0.2, 3.5, 3)}千瓦时，较${method(r)}节能${num(r, 5, 45)}%`,
  (r) => `${pick(r, ORG)}${int(r, 2012, 2025)}年在${pick(r, REGION)}${int(r, 3, 48)}个${facility(r)}试验了${method(r)}`,
  (r) => `${grain(r)}${param(r)}与储藏时间的相关系数为${num(r, 0.3, 0.97, 3)}，${pick(r, STAGE)}${pick(r, EFFECT)}`,
  (r) => `${pick(r, DEVICE)}每${int(r, 1, 24)}小时采集${param(r)}，累计${int(r, 3000, 98000)}条记录`,
  (r) => `${param(r)}超过${num(r, 10, 40)}持续${int(r, 2, 30)}天即启动${method(r)}和${pick(r, DEVICE)}`,
  (r) => `${grain(r)}样品${param(r)}合格率${num(r, 80, 100)}%，${param(r)}${pick(r, EFFECT)}`,
  (r) => `${method(r)}加${method(r)}使${facility(r)}${param(r)}在${int(r, 30, 360)}天内${pick(r, EFFECT)}`,
  (r) => `${pick(r, REGION)}${pick(r, STAGE)}宜用${method(r)}，${pick(r, DEVICE)}按${param(r)}${num(r, 10, 30)}控制`,
  (r) => `${pick(r, PEST)}对${pick(r, ['磷化氢', '硫酰氟', '氮气', '二氧化碳', '溴氰菊酯', '甲基嘧啶磷'])}抗性系数${num(r, 1.2, 180)}，${pick(r, REGION)}${int(r, 2, 40)}个品系`,
  (r) => `${pick(r, STAGE)}${grain(r)}${param(r)}由${num(r, 10, 20)}变为${num(r, 10, 20)}`,
  (r) => `${pick(r, ORG)}形成${pick(r, OUTPUT)}${int(r, 1, 12)}项、${pick(r, OUTPUT)}${int(r, 1, 9)}项`,
  (r) => `${pick(r, MODEL)}识别${pick(r, PEST)}准确率${num(r, 85, 99.5)}%，每张${int(r, 12, 480)}毫秒`,
  (r) => `${facility(r)}${pick(r, PQUAL)}${param(r)}比${pick(r, PQUAL)}高${num(r, 0.5, 8)}，${pick(r, STAGE)}${pick(r, EFFECT)}`,
];

const CONNECT = ['，', '，', '；', '，同时', '，其中', '，并且', '，因此', '，而'];

/** One sentence of two to four clauses. */
export function sentence(r: () => number): string {
  const n = 2 + Math.floor(r() * 3);
  let s = pick(r, CLAUSES)(r);
  for (let i = 1; i < n; i++) s += pick(r, CONNECT) + pick(r, CLAUSES)(r);
  return s + '。';
}

/** A text of about `chars` characters (paragraphs of three to six sentences). */
export function researchText(r: () => number, chars: number): string {
  const paras: string[] = [];
  let len = 0;
  while (len < chars) {
    let p = '';
    const n = 3 + Math.floor(r() * 4);
    for (let i = 0; i < n && len + p.length < chars; i++) p += sentence(r);
    paras.push(p);
    len += p.length + 1;
  }
  return paras.join('\n');
}
