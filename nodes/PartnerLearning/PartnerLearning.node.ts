import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { RESOURCES, router } from './actions/router.ts';
import { simplifyField } from './actions/simplify.ts';
import { toolDescriptions } from './actions/toolDescription.ts';
import { searchCategories, searchCourses, searchModules, searchOrganizations } from './methods/listSearch.ts';

const operationProperties = Object.values(RESOURCES).flatMap((resource) => resource.description);

/** Partner Learning: learners, catalog, content links, completions, progress and transcripts (PDFs as files). */
export class PartnerLearning implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Partner Learning',
    name: 'partnerLearning',
    icon: { light: 'file:partnerLearning.svg', dark: 'file:partnerLearning.dark.svg' },
    group: ['transform'],
    version: 1,
    // Reads "Get Many: Course" rather than the raw values "getAll: course".
    subtitle:
      '={{ ({"complete":"Complete","deactivate":"Deactivate","delete":"Delete","downloadCertificate":"Download Certificate","downloadPdf":"Download PDF","get":"Get","getAll":"Get Many","reactivate":"Reactivate","refresh":"Refresh","register":"Register","update":"Update"})[$parameter["operation"]] || $parameter["operation"] }}: {{ ({"category":"Category","completion":"Completion","content":"Content","course":"Course","module":"Module","organization":"Organization","progress":"Progress","transcript":"Transcript","user":"User"})[$parameter["resource"]] || $parameter["resource"] }}',
    description: 'Register learners, read the course catalog, hand out content links, record completions and collect transcripts and certificates',
    defaults: { name: 'Partner Learning' },
    usableAsTool: true,
    inputs: [NodeConnectionTypes.Main],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: 'partnerLearningApi', required: true }],
    properties: [
      {
        displayName: 'Resource',
        name: 'resource',
        type: 'options',
        noDataExpression: true,
        options: Object.entries(RESOURCES).map(([value, resource]) => ({ name: resource.name, value })),
        default: 'user',
      },
      ...operationProperties,
      simplifyField,
      // Tool mode only: what an AI agent reads about each operation (n8n's automatic text omits the parameters).
      ...toolDescriptions(operationProperties),
      {
        // Said where it matters rather than met later: n8n 1.x ends an agent's run on any tool's error.
        displayName:
          'On n8n 1.x an error from this tool (a User ID that is not a UUID, say) ends the agent\'s run, as n8n 1.x does for every tool; n8n 2.x hands the error back to the model so it can correct itself',
        name: 'toolErrorsNotice',
        type: 'notice',
        default: '',
        displayOptions: { show: { '@tool': [true] } },
      },
    ],
  };

  methods = {
    listSearch: { searchCategories, searchCourses, searchModules, searchOrganizations },
  };

  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    return router.call(this);
  }
}
